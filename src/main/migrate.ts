/** `npm run migrate`: applies pending migrations to DATABASE_URL and exits. */
import { migrate, openDatabase } from "../adapters/postgres/orm.js";
import { SecretCipher } from "../adapters/webhooks/secret-cipher.js";
import { databaseCommandSettings } from "./database-command.js";

// The keyring encrypts the secrets that migration 0005 finds in plain text.
const { url, keys } = databaseCommandSettings();
const orm = await openDatabase(url, 2);
try {
  const applied = await migrate(orm, new SecretCipher(keys));
  process.stdout.write(applied.length ? `applied: ${applied.join(", ")}\n` : "database is up to date\n");
} finally {
  await orm.close();
}
