import type { EntityManager } from "@mikro-orm/postgresql";
import { secretContext, type SecretCipher } from "../webhooks/secret-cipher.js";

interface SecretRow {
  id: string;
  tenant_id: string;
  secret: string | null;
  secret_ciphertext: string | null;
  previous_secret_ciphertext: string | null;
}

type Rewrite = (row: SecretRow, context: string) => Pick<SecretRow, "secret_ciphertext" | "previous_secret_ciphertext">;

/**
 * The data half of migration 0005, run by `migrate` (each API start) after the schema changes:
 * encrypts every plain secret with the current key and clears it. It never touches a ciphertext:
 * during a rolling deploy the replicas still running hold only the old keys, and a start that
 * wrote secrets under its new key would leave them unable to sign (`reencryptWebhookSecrets` is
 * the explicit step for that). Answers how many rows it wrote.
 */
export function encryptPlainWebhookSecrets(em: EntityManager, cipher: SecretCipher): Promise<number> {
  return rewriteSecrets(em, "secret is not null", [], (row, context) => ({
    secret_ciphertext: cipher.encrypt(row.secret!, context),
    previous_secret_ciphertext: row.previous_secret_ciphertext,
  }));
}

/**
 * `npm run webhooks:reencrypt-secrets`: writes again under the current key every secret an older
 * key encrypted, after which that key can leave the keyring. Run it once every replica holds the
 * new key as current. Plain secrets are left to `migrate`.
 */
export function reencryptWebhookSecrets(em: EntityManager, cipher: SecretCipher): Promise<number> {
  const again = (stored: string | null, context: string) => (stored === null || cipher.isCurrent(stored) ? stored : cipher.encrypt(cipher.decrypt(stored, context), context));
  return rewriteSecrets(em, "secret is null and (secret_ciphertext not like ? or previous_secret_ciphertext not like ?)", [cipher.currentPrefix(), cipher.currentPrefix()], (row, context) => ({
    secret_ciphertext: again(row.secret_ciphertext, context),
    previous_secret_ciphertext: again(row.previous_secret_ciphertext, context),
  }));
}

/**
 * Each update is conditional on what was read: running twice, on two replicas at once, or beside
 * a rotation changes nothing more (a row rotated meanwhile is left as the rotation wrote it).
 */
async function rewriteSecrets(em: EntityManager, where: string, params: string[], rewrite: Rewrite): Promise<number> {
  const rows = (await em.execute(`select id, tenant_id, secret, secret_ciphertext, previous_secret_ciphertext from webhook_endpoints where ${where}`, params)) as SecretRow[];
  let written = 0;
  for (const row of rows) {
    const next = rewrite(row, secretContext(row.tenant_id, row.id));
    const changed = (await em.execute(
      `update webhook_endpoints set secret = null, secret_ciphertext = ?, previous_secret_ciphertext = ?
        where id = ? and secret is not distinct from ? and secret_ciphertext is not distinct from ? and previous_secret_ciphertext is not distinct from ?`,
      [next.secret_ciphertext, next.previous_secret_ciphertext, row.id, row.secret, row.secret_ciphertext, row.previous_secret_ciphertext],
      "run",
    )) as { affectedRows?: number };
    written += changed.affectedRows ?? 0;
  }
  return written;
}
