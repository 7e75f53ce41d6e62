/**
 * DEVELOPMENT_MODE=true, the one switch for development shortcuts (Config.developmentMode), and
 * the one guard it needs before anything else: where the API may listen while it is on.
 */
import { ConfigError } from "./config-error.js";
import type { Env } from "./env.js";
import { boolean, optional } from "./env-values.js";

/** The one place that decides whether development shortcuts are on (Config.developmentMode). */
export function isDevelopmentMode(env: Env): boolean {
  return boolean(env, "DEVELOPMENT_MODE", false);
}

export const isLoopbackHost = (host: string) => host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/**
 * Development mode hands out all-permission tokens at /demo/token: on an address other machines
 * reach, anyone on the network is an administrator of every tenant. So it binds to loopback
 * only, unless DEVELOPMENT_MODE_ALLOW_NON_LOOPBACK=true says that exposure is meant (a throwaway
 * VM, a container whose port only the host publishes).
 */
export function listenHost(env: Env, developmentMode: boolean): string {
  const host = optional(env, "HOST") ?? "127.0.0.1";
  if (!developmentMode || isLoopbackHost(host) || host === "::1") return host;
  if (boolean(env, "DEVELOPMENT_MODE_ALLOW_NON_LOOPBACK", false)) return host;
  throw new ConfigError(
    "HOST",
    `is ${host}, not a loopback address, and DEVELOPMENT_MODE=true serves all-permission tokens to anyone who reaches it; bind to 127.0.0.1 or set DEVELOPMENT_MODE_ALLOW_NON_LOOPBACK=true`,
  );
}
