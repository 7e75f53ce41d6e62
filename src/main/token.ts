/**
 * `npm run -s token -- --tenant T --user U --perm P1,P2` prints a development token signed with
 * the development secret (or AUTH_HS256_SECRET). Without --perm it grants every permission.
 */
import { parseArgs } from "node:util";
import { SignJWT } from "jose";
import { DEVELOPMENT_JWT_SECRET } from "../config.js";
import { allPermissions } from "../rpc/permissions.js";

const { values } = parseArgs({
  options: {
    tenant: { type: "string", default: "tenant-dev" },
    user: { type: "string", default: "user-dev" },
    perm: { type: "string" },
    ttl: { type: "string", default: "12h" },
  },
});

if (process.env.NODE_ENV === "production") {
  process.stderr.write("refusing to sign development tokens with NODE_ENV=production\n");
  process.exit(1);
}
const perms = values.perm ? values.perm.split(",").map((p) => p.trim()).filter(Boolean) : allPermissions;
const secret = new TextEncoder().encode(process.env.AUTH_HS256_SECRET || DEVELOPMENT_JWT_SECRET);
const token = await new SignJWT({ tid: values.tenant, perms })
  .setProtectedHeader({ alg: "HS256" })
  .setSubject(values.user!)
  .setIssuedAt()
  .setExpirationTime(values.ttl!)
  .sign(secret);
process.stdout.write(`${token}\n`);
