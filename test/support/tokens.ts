import { inject } from "vitest";
import { signDevelopmentToken } from "../../src/rpc/dev-token.js";

/** What the API verifies: the HS256 secret, issuer and audience of its configuration. */
export interface TokenSigning {
  secret: string;
  issuer: string;
  audience: string;
}

/** The in-memory API's (test/unit/rpc/in-memory-api.ts): the safe mode, no development secret. */
export const UNIT_SIGNING: TokenSigning = {
  secret: "unit-tests-hs256-secret-0123456789abcdef",
  issuer: "https://issuer.unit.test",
  audience: "files-and-fields-unit",
};

interface TokenOptions {
  user?: string;
  /** Every permission when omitted. */
  perms?: string[];
  /** Another secret than the API's: a token the server must refuse. */
  secret?: string;
  /** Another issuer or audience than the API's. */
  issuer?: string;
  audience?: string;
  /** A jose duration; "-1m" for an expired token. */
  expiresIn?: string;
  /** Identity claims: name, email, role, branch_id. */
  profile?: Readonly<Record<string, string>>;
}

/** The integration stack's signing (global-setup.ts, a random secret), else the unit tests'. */
function signing(): TokenSigning {
  const env = inject("stackEnv") as Record<string, string> | undefined;
  if (!env?.AUTH_HS256_SECRET) return UNIT_SIGNING;
  return { secret: env.AUTH_HS256_SECRET, issuer: env.AUTH_ISSUER!, audience: env.AUTH_AUDIENCE! };
}

/** An HS256 token for a tenant, as the API under test verifies it. */
export function tokenFor(tenant: string, opts: TokenOptions = {}): Promise<string> {
  const api = signing();
  return signDevelopmentToken(opts.secret ?? api.secret, {
    tenant,
    user: opts.user ?? "user-1",
    perms: opts.perms,
    ttl: opts.expiresIn ?? "1h",
    issuer: opts.issuer ?? api.issuer,
    audience: opts.audience ?? api.audience,
    profile: opts.profile,
  });
}
