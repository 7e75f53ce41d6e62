import { SignJWT } from "jose";
import { allPermissions } from "./permissions.js";

export interface DevelopmentTokenClaims {
  tenant: string;
  user: string;
  /** Every permission when omitted. */
  perms?: readonly string[];
  /** A jose duration such as "12h". */
  ttl?: string;
}

/**
 * An HS256 token as the development verifier accepts it (`sub`, `tid`, `perms`). Used by
 * `npm run token` and the demo page's token endpoint; callers refuse it in production.
 */
export function signDevelopmentToken(secret: string, claims: DevelopmentTokenClaims): Promise<string> {
  return new SignJWT({ tid: claims.tenant, perms: [...(claims.perms ?? allPermissions)] })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.user)
    .setIssuedAt()
    .setExpirationTime(claims.ttl ?? "12h")
    .sign(new TextEncoder().encode(secret));
}
