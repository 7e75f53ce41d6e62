import type { EntityManager } from "@mikro-orm/postgresql";
import { secretContext, type SecretCipher } from "../webhooks/secret-cipher.js";

interface SecretRow {
  id: string;
  tenant_id: string;
  secret: string | null;
  secret_ciphertext: string | null;
  previous_secret_ciphertext: string | null;
}

/**
 * The data half of migration 0005, run by `migrate` after the schema changes: encrypts every plain
 * secret with the current key and clears it, and writes again under the current key what an older
 * key encrypted (after a change of `WEBHOOK_SECRET_KEY`, so the old key can then be dropped from
 * `WEBHOOK_SECRET_PREVIOUS_KEYS`). Each update is conditional on what was read: running twice, or
 * on two replicas at once, changes nothing more. Answers how many rows it wrote.
 */
export async function encryptWebhookSecrets(em: EntityManager, cipher: SecretCipher): Promise<number> {
  const rows = (await em.execute(
    `select id, tenant_id, secret, secret_ciphertext, previous_secret_ciphertext from webhook_endpoints
      where secret is not null or secret_ciphertext not like ? or previous_secret_ciphertext not like ?`,
    [cipher.currentPrefix(), cipher.currentPrefix()],
  )) as SecretRow[];
  let written = 0;
  for (const row of rows) {
    const context = secretContext(row.tenant_id, row.id);
    const again = (stored: string | null) => (stored === null || cipher.isCurrent(stored) ? stored : cipher.encrypt(cipher.decrypt(stored, context), context));
    const current = row.secret !== null ? cipher.encrypt(row.secret, context) : again(row.secret_ciphertext);
    const previous = again(row.previous_secret_ciphertext);
    const changed = (await em.execute(
      `update webhook_endpoints set secret = null, secret_ciphertext = ?, previous_secret_ciphertext = ?
        where id = ? and secret is not distinct from ? and secret_ciphertext is not distinct from ? and previous_secret_ciphertext is not distinct from ?`,
      [current, previous, row.id, row.secret, row.secret_ciphertext, row.previous_secret_ciphertext],
      "run",
    )) as { affectedRows?: number };
    written += changed.affectedRows ?? 0;
  }
  return written;
}
