/**
 * What the one-shot database commands (`npm run migrate`, `npm run webhooks:reencrypt-secrets`)
 * read from the environment: the database URL and the webhook secret keyring. A missing or bad
 * setting ends the process with the configuration error, as the servers' start does.
 */
import { ConfigError } from "../config/config-error.js";
import { isDevelopmentMode } from "../config/development-mode.js";
import { readEnv } from "../config/env.js";
import { parseWebhookSecretKeys, type WebhookSecretKeys } from "../config/webhook-secret-keys.js";

export function databaseCommandSettings(): { url: string; keys: WebhookSecretKeys } {
  const url = process.env.DATABASE_URL;
  if (!url) return exitWithConfigError("DATABASE_URL: is required");
  try {
    const env = readEnv();
    return { url, keys: parseWebhookSecretKeys(env, isDevelopmentMode(env)) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return exitWithConfigError(error.message);
  }
}

function exitWithConfigError(message: string): never {
  process.stderr.write(`configuration error: ${message}\n`);
  process.exit(1);
}
