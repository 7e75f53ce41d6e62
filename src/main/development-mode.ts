import { DEVELOPMENT_JWT_SECRET } from "../config/auth.js";
import type { Config } from "../config/config.js";
import type { Logger } from "../logger.js";

/** What DEVELOPMENT_MODE=true turned on in this configuration, for the start-up warning. */
function shortcutsOn(config: Config): string[] {
  const on = ["the demo pages (/demo)"];
  if (config.auth.hs256Secret) on.push("/demo/token signing all-permission tokens for any tenant without authentication");
  if (config.auth.hs256Secret === DEVELOPMENT_JWT_SECRET) on.push("the development HS256 secret");
  if (config.auth.jwksUrl?.startsWith("http:")) on.push("a plain-http JWKS URL");
  if (config.webhooks.allowPrivateUrls) on.push("webhooks to private and loopback addresses");
  if (config.worker.faultInjection) on.push("FAULT_INJECTION");
  return on;
}

/** One loud line at start-up, so a development configuration is never mistaken for a safe one. */
export function warnIfDevelopmentMode(config: Config, logger: Logger): void {
  if (!config.developmentMode) return;
  const on = shortcutsOn(config);
  logger.warn({ developmentMode: on }, `DEVELOPMENT_MODE=true, never in production: ${on.join(", ")}`);
}
