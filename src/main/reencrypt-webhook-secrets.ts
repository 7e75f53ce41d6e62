/**
 * `npm run webhooks:reencrypt-secrets`: writes every webhook secret an older key encrypted again
 * under the current key of the keyring (WEBHOOK_SECRET_KEYS, or WEBHOOK_SECRET_KEY with
 * WEBHOOK_SECRET_PREVIOUS_KEYS), then exits. Never run by a start: run it once every replica
 * has the new key as its current one; afterwards the old key can leave the keyring.
 */
import { openDatabase } from "../adapters/postgres/orm.js";
import { reencryptWebhookSecrets } from "../adapters/postgres/webhook-secret-encryption.js";
import { SecretCipher } from "../adapters/webhooks/secret-cipher.js";
import { databaseCommandSettings } from "./database-command.js";

const { url, keys } = databaseCommandSettings();
const orm = await openDatabase(url, 1);
try {
  const written = await reencryptWebhookSecrets(orm.em.fork(), new SecretCipher(keys));
  process.stdout.write(`re-encrypted the secrets of ${written} webhook endpoint(s) under the current key\n`);
} finally {
  await orm.close();
}
