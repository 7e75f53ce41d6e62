/**
 * Development tokens for command-line tools (`npm run token`, the CLI): the secret the API uses
 * (AUTH_HS256_SECRET, or the development secret), refused with NODE_ENV=production. The token
 * itself is the one the demo page signs (src/rpc/dev-token.ts).
 */
import { DEVELOPMENT_JWT_SECRET } from "../config.js";
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

export async function signDevToken(request: DevTokenRequest, env: NodeJS.ProcessEnv): Promise<string> {
  if (env.NODE_ENV === "production") throw new DevTokenRefused("refusing to sign development tokens with NODE_ENV=production");
  return signDevelopmentToken(env.AUTH_HS256_SECRET || DEVELOPMENT_JWT_SECRET, {
    tenant: request.tenant,
    user: request.user,
    perms: request.permissions,
    ttl: request.ttl,
  });
}
