import { SignJWT } from "jose";
import { DEVELOPMENT_TOKEN_AUDIENCE, DEVELOPMENT_TOKEN_ISSUER } from "../config/auth.js";
import { allPermissions } from "./permissions.js";

export interface DevelopmentTokenClaims {
  tenant: string;
  user: string;
  /** Every permission when omitted. */
  perms?: readonly string[];
  /** A jose duration such as "12h". */
  ttl?: string;
  /** The API's AUTH_ISSUER / AUTH_AUDIENCE; the development ones when omitted. */
  issuer?: string;
  audience?: string;
  /** Identity claims the verifier reads into `user.*` (name, email, role, branch_id). */
  profile?: Readonly<Record<string, string>>;
}

/**
 * An HS256 token as the verifier accepts it (`sub`, `tid`, `perms`, `iss`, `aud`, `exp`). Used by
 * `npm run token` and the demo page's token endpoint, both in development mode only.
 */
export function signDevelopmentToken(secret: string, claims: DevelopmentTokenClaims): Promise<string> {
  return new SignJWT({ ...claims.profile, tid: claims.tenant, perms: [...(claims.perms ?? allPermissions)] })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.user)
    .setIssuer(claims.issuer ?? DEVELOPMENT_TOKEN_ISSUER)
    .setAudience(claims.audience ?? DEVELOPMENT_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(claims.ttl ?? "12h")
    .sign(new TextEncoder().encode(secret));
}
