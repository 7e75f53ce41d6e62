import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyOptions } from "jose";
import { AppError } from "../domain/errors.js";
import type { AuthConfig } from "../config.js";
import type { UserProfile } from "../domain/actor.js";
import type { Principal } from "./principal.js";

export type TokenVerifierConfig = Pick<AuthConfig, "jwksUrl" | "hs256Secret" | "issuer" | "audience"> & {
  /** 30 s when omitted. */
  clockToleranceSeconds?: number;
};

export type TokenVerifier = (token: string) => Promise<Principal>;

function principalFromClaims(payload: JWTPayload): Principal {
  const { sub, tid, perms } = payload as JWTPayload & { tid?: unknown; perms?: unknown };
  if (typeof sub !== "string" || sub === "") throw new AppError("UNAUTHENTICATED", "token has no subject (sub)");
  if (typeof tid !== "string" || tid === "") throw new AppError("UNAUTHENTICATED", "token has no tenant (tid)");
  if (perms !== undefined && (!Array.isArray(perms) || perms.some((p) => typeof p !== "string"))) {
    throw new AppError("UNAUTHENTICATED", "token claim perms must be an array of strings");
  }
  const principal: Principal = { tenantId: tid, actorId: sub, permissions: new Set((perms as string[] | undefined) ?? []) };
  const profile = profileFromClaims(payload);
  if (profile) principal.profile = profile;
  return principal;
}

/** Token claim → `user.*` in rules and formulas (docs/custom-fields.md). */
const PROFILE_CLAIMS = [
  ["name", "name"],
  ["email", "email"],
  ["role", "role"],
  ["branch_id", "branchId"],
] as const;

/**
 * The optional identity claims; one that is not a string is left out rather than refusing the
 * token, since they only feed rules and a rule on a missing value simply does not match.
 */
function profileFromClaims(payload: JWTPayload): UserProfile | undefined {
  const profile: UserProfile = {};
  for (const [claim, key] of PROFILE_CLAIMS) {
    const value = payload[claim];
    if (typeof value === "string") profile[key] = value;
  }
  return Object.keys(profile).length > 0 ? profile : undefined;
}

/**
 * JWKS (RS256/ES256), or a shared HS256 secret (docs/decisions.md). A token must expire (`exp`
 * required: a leaked token without one would work forever) and, when configured, name this API's
 * issuer and audience (a token minted for another service is refused).
 */
export function createTokenVerifier(config: TokenVerifierConfig): TokenVerifier {
  const jwks = config.jwksUrl ? createRemoteJWKSet(new URL(config.jwksUrl)) : undefined;
  const secret = config.hs256Secret ? new TextEncoder().encode(config.hs256Secret) : undefined;
  const checks: JWTVerifyOptions = {
    requiredClaims: ["exp"],
    clockTolerance: config.clockToleranceSeconds ?? 30,
    issuer: config.issuer,
    audience: config.audience,
  };
  return async (token) => {
    try {
      const { payload } = jwks
        ? await jwtVerify(token, jwks, { ...checks, algorithms: ["RS256", "ES256"] })
        : await jwtVerify(token, secret!, { ...checks, algorithms: ["HS256"] });
      return principalFromClaims(payload);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError("UNAUTHENTICATED", `invalid token: ${(error as Error).message}`, { cause: error });
    }
  };
}
