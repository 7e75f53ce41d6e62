/**
 * How the API verifies bearer tokens: a JWKS URL or an HS256 secret, and the issuer and audience
 * every token must name. Development mode alone may fall back to a secret from the source.
 */
import { ConfigError } from "./config-error.js";
import { isLoopbackHost } from "./development-mode.js";
import type { Env } from "./env.js";
import { integer, optional, url } from "./env-values.js";

export const DEVELOPMENT_JWT_SECRET = "development-secret-do-not-use-in-production";
/** The issuer and audience development tokens carry (src/rpc/dev-token.ts). */
export const DEVELOPMENT_TOKEN_ISSUER = "files-and-fields-development";
export const DEVELOPMENT_TOKEN_AUDIENCE = "files-and-fields-development";
/** RFC 7518 §3.2: an HS256 key at least as long as the hash output. */
const MIN_HS256_SECRET_BYTES = 32;

export interface AuthConfig {
  jwksUrl?: string;
  hs256Secret?: string;
  /** `iss` and `aud` are checked when set; development mode sets them to the development token's. */
  issuer?: string;
  audience?: string;
  /** Leeway for `exp` (always required) and `nbf` against clock drift between issuer and API. */
  clockToleranceSeconds: number;
}

/** Keys fetched over plain http could be swapped by anyone on the path: https, bar a local test issuer. */
function jwksUrl(env: Env, developmentMode: boolean): string | undefined {
  const value = optional(env, "AUTH_JWKS_URL");
  if (value === undefined) return undefined;
  url(env, "AUTH_JWKS_URL", value, ["http:", "https:"]);
  const parsed = new URL(value);
  if (parsed.protocol === "http:" && !(developmentMode && isLoopbackHost(parsed.hostname))) {
    throw new ConfigError("AUTH_JWKS_URL", "must use https: (http: only for a loopback host with DEVELOPMENT_MODE=true)");
  }
  return value;
}

/** Exported for the token tools (src/cli/dev-token-from-env.ts): they sign what the API verifies. */
export function parseAuth(env: Env, developmentMode: boolean): AuthConfig {
  const jwks = jwksUrl(env, developmentMode);
  const secret = optional(env, "AUTH_HS256_SECRET") ?? (developmentMode && !jwks ? DEVELOPMENT_JWT_SECRET : undefined);
  if (secret === DEVELOPMENT_JWT_SECRET && !developmentMode) {
    throw new ConfigError("AUTH_HS256_SECRET", "the development secret is refused without DEVELOPMENT_MODE=true");
  }
  if (secret !== undefined && new TextEncoder().encode(secret).length < MIN_HS256_SECRET_BYTES) {
    throw new ConfigError("AUTH_HS256_SECRET", `must be at least ${MIN_HS256_SECRET_BYTES} bytes`);
  }
  if (!jwks && !secret) throw new ConfigError("AUTH_JWKS_URL", "is required, or AUTH_HS256_SECRET (DEVELOPMENT_MODE=true uses a development secret)");
  const developmentSecret = secret === DEVELOPMENT_JWT_SECRET;
  const issuer = optional(env, "AUTH_ISSUER") ?? (developmentSecret ? DEVELOPMENT_TOKEN_ISSUER : undefined);
  const audience = optional(env, "AUTH_AUDIENCE") ?? (developmentSecret ? DEVELOPMENT_TOKEN_AUDIENCE : undefined);
  // A token minted by the same identity provider for another service must not open this one.
  for (const [name, value] of [["AUTH_ISSUER", issuer], ["AUTH_AUDIENCE", audience]] as const) {
    if (value === undefined && !developmentMode) throw new ConfigError(name, "is required without DEVELOPMENT_MODE=true (every token must name it)");
  }
  return { jwksUrl: jwks, hs256Secret: secret, issuer, audience, clockToleranceSeconds: integer(env, "AUTH_CLOCK_TOLERANCE_SECONDS", 30, 0) };
}
