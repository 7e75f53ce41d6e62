import { DEVELOPMENT_JWT_SECRET } from "../../src/config.js";
import { signDevelopmentToken } from "../../src/rpc/dev-token.js";

interface TokenOptions {
  user?: string;
  /** Every permission when omitted. */
  perms?: string[];
  /** Another secret than the development one: a token the server must refuse. */
  secret?: string;
  /** A jose duration; "-1m" for an expired token. */
  expiresIn?: string;
}

/** A development HS256 token for a tenant, as the API's development verifier accepts it. */
export function tokenFor(tenant: string, opts: TokenOptions = {}): Promise<string> {
  return signDevelopmentToken(opts.secret ?? DEVELOPMENT_JWT_SECRET, {
    tenant,
    user: opts.user ?? "user-1",
    perms: opts.perms,
    ttl: opts.expiresIn ?? "1h",
  });
}
