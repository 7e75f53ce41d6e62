/**
 * `npm run -s token -- --tenant T --user U --perm P1,P2` prints a development token signed with
 * the development secret (or AUTH_HS256_SECRET with DEVELOPMENT_MODE=true). Without --perm it
 * grants every permission.
 */
import { parseArgs } from "node:util";
import { DevTokenRefused, signDevToken } from "../cli/dev-token-from-env.js";

const { values } = parseArgs({
  options: {
    tenant: { type: "string", default: "tenant-dev" },
    user: { type: "string", default: "user-dev" },
    perm: { type: "string" },
    ttl: { type: "string", default: "12h" },
  },
});

const permissions = values.perm ? values.perm.split(",").map((p) => p.trim()).filter(Boolean) : undefined;
try {
  const token = await signDevToken({ tenant: values.tenant!, user: values.user!, permissions, ttl: values.ttl }, process.env);
  process.stdout.write(`${token}\n`);
} catch (error) {
  if (!(error instanceof DevTokenRefused)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
