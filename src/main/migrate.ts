/** `npm run migrate`: applies pending migrations to DATABASE_URL and exits. */
import { migrate, openDatabase } from "../adapters/postgres/orm.js";
import { SecretCipher } from "../adapters/webhooks/secret-cipher.js";
import { ConfigError, isDevelopmentMode, parseWebhookSecretKeys, readEnv } from "../config.js";

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write("configuration error: DATABASE_URL: is required\n");
  process.exit(1);
}
let keys;
try {
  // The key encrypts the secrets that migration 0005 finds in plain text.
  const env = readEnv();
  keys = parseWebhookSecretKeys(env, isDevelopmentMode(env));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`configuration error: ${error.message}\n`);
  process.exit(1);
}
const orm = await openDatabase(url, 2);
try {
  const applied = await migrate(orm, new SecretCipher(keys));
  process.stdout.write(applied.length ? `applied: ${applied.join(", ")}\n` : "database is up to date\n");
} finally {
  await orm.close();
}
