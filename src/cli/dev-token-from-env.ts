/**
 * Development tokens for command-line tools (`npm run token`, the CLI): signed as an API in
 * development mode verifies them (src/config/auth.ts). With the development secret anyone may sign,
 * since only a development-mode API accepts it; with a real AUTH_HS256_SECRET, only when
 * DEVELOPMENT_MODE=true asks for it. The token itself is the one the demo page signs
 * (src/rpc/dev-token.ts).
 */
import { DEVELOPMENT_JWT_SECRET, parseAuth, type AuthConfig } from "../config/auth.js";
import { ConfigError } from "../config/config-error.js";
import { isDevelopmentMode } from "../config/development-mode.js";
import { signDevelopmentToken } from "../rpc/dev-token.js";

export interface DevTokenRequest {
  tenant: string;
  user: string;
  /** Every permission when absent. */
  permissions?: string[];
  /** A jose time span such as "12h". */
  ttl?: string;
}

export class DevTokenRefused extends Error {}

function signing(env: NodeJS.ProcessEnv): { auth: AuthConfig; developmentMode: boolean } {
  try {
    return { auth: parseAuth(env, true), developmentMode: isDevelopmentMode(env) };
  } catch (error) {
    if (error instanceof ConfigError) throw new DevTokenRefused(`refusing to sign a development token: ${error.message}`);
    throw error;
  }
}

export async function signDevToken(request: DevTokenRequest, env: NodeJS.ProcessEnv): Promise<string> {
  const { auth, developmentMode } = signing(env);
  if (!auth.hs256Secret) throw new DevTokenRefused("refusing to sign a development token: the API verifies JWKS tokens only (AUTH_JWKS_URL)");
  if (auth.hs256Secret !== DEVELOPMENT_JWT_SECRET && !developmentMode) {
    throw new DevTokenRefused("refusing to sign a development token with AUTH_HS256_SECRET without DEVELOPMENT_MODE=true");
  }
  return signDevelopmentToken(auth.hs256Secret, {
    tenant: request.tenant,
    user: request.user,
    perms: request.permissions,
    ttl: request.ttl,
    issuer: auth.issuer,
    audience: auth.audience,
  });
}
