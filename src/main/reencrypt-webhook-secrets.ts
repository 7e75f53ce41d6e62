/**
 * `npm run webhooks:reencrypt-secrets`: writes every webhook secret an older key encrypted again
 * under the current key of the keyring (WEBHOOK_SECRET_KEYS, or WEBHOOK_SECRET_KEY with
 * WEBHOOK_SECRET_PREVIOUS_KEYS), then exits. Never run by a start: run it once every replica
 * has the new key as its current one; afterwards the old key can leave the keyring.
 */
import { openDatabase } from "../adapters/postgres/orm.js";
import { reencryptWebhookSecrets } from "../adapters/postgres/webhook-secret-encryption.js";
import { SecretCipher } from "../adapters/webhooks/secret-cipher.js";
import { ConfigError, isDevelopmentMode, parseWebhookSecretKeys, readEnv } from "../config.js";

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write("configuration error: DATABASE_URL: is required\n");
  process.exit(1);
}
let keys;
try {
  const env = readEnv();
  keys = parseWebhookSecretKeys(env, isDevelopmentMode(env));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`configuration error: ${error.message}\n`);
  process.exit(1);
}
const orm = await openDatabase(url, 1);
try {
  const written = await reencryptWebhookSecrets(orm.em.fork(), new SecretCipher(keys));
  process.stdout.write(`re-encrypted the secrets of ${written} webhook endpoint(s) under the current key\n`);
} finally {
  await orm.close();
}
