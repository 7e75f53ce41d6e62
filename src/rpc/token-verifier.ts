import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyOptions } from "jose";
import { AppError } from "../domain/errors.js";
import type { AuthConfig } from "../config/auth.js";
import type { UserProfile } from "../domain/actor.js";
import type { Principal } from "./principal.js";
import { VerifiedTokenCache } from "./verified-token-cache.js";

/** Distinct live tokens remembered; a client's token is normally one entry for its whole life. */
const VERIFIED_TOKENS_MAX = 10_000;
/** How long a verified token is trusted without checking it again (it never outlives its `exp`). */
const VERIFIED_TOKEN_TTL_MS = 60_000;

export type TokenVerifierConfig = Pick<AuthConfig, "jwksUrl" | "hs256Secret" | "issuer" | "audience"> & {
  /** 30 s when omitted. */
  clockToleranceSeconds?: number;
  /** The clock `exp` is checked against (by jose and the cache of verified tokens); Date.now when omitted. */
  now?: () => number;
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
 * issuer and audience (a token minted for another service is refused). A token that passed is
 * remembered until it expires, for at most a minute (VerifiedTokenCache).
 */
export function createTokenVerifier(config: TokenVerifierConfig): TokenVerifier {
  const jwks = config.jwksUrl ? createRemoteJWKSet(new URL(config.jwksUrl)) : undefined;
  // Imported once: given the raw bytes, jose would import the key again on every call.
  const secret = config.hs256Secret ? hmacKey(config.hs256Secret) : undefined;
  const toleranceSeconds = config.clockToleranceSeconds ?? 30;
  const checks: JWTVerifyOptions = {
    requiredClaims: ["exp"],
    clockTolerance: toleranceSeconds,
    issuer: config.issuer,
    audience: config.audience,
  };
  const now = config.now ?? Date.now;
  const verified = new VerifiedTokenCache<Principal>(VERIFIED_TOKENS_MAX, VERIFIED_TOKEN_TTL_MS);
  return async (token) => {
    const known = verified.get(token, now());
    if (known) return known;
    try {
      const options = { ...checks, currentDate: new Date(now()) };
      const { payload } = jwks
        ? await jwtVerify(token, jwks, { ...options, algorithms: ["RS256", "ES256"] })
        : await jwtVerify(token, await secret!, { ...options, algorithms: ["HS256"] });
      const principal = principalFromClaims(payload);
      verified.set(token, principal, (payload.exp! + toleranceSeconds) * 1000, now());
      return principal;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError("UNAUTHENTICATED", `invalid token: ${(error as Error).message}`, { cause: error });
    }
  };
}

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
}
