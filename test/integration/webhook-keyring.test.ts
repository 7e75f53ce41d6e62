/**
 * Webhook secret keys as a keyring during a rolling deploy: a replica that starts with a new key
 * (and the old one to decrypt) writes no secret again, so the replicas still on the old keyring
 * keep decrypting what is stored; only the explicit command re-encrypts under the current key.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { migrate } from "../../src/adapters/postgres/orm.js";
import { reencryptWebhookSecrets } from "../../src/adapters/postgres/webhook-secret-encryption.js";
import { SecretCipher, secretContext, secretKeyId } from "../../src/adapters/webhooks/secret-cipher.js";
import { parseWebhookSecretKeys } from "../../src/config/webhook-secret-keys.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { sql, withDb } from "../support/stack-access.js";

interface Row {
  id: string;
  tenant_id: string;
  secret_ciphertext: string;
}

const stackKey = () => parseWebhookSecretKeys(inject("stackEnv"), false).current;
const newKey = randomBytes(32);
const keyring = (...keys: Buffer[]) => keys.map((k) => k.toString("base64")).join(",");

async function endpointWithSecret(): Promise<{ row: Row; secret: string }> {
  const token = await tokenFor(uniqueTenant("wh-ring"));
  const created = await rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: "https://hooks.example.com/ring" } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const [row] = await sql<Row>("select id, tenant_id, secret_ciphertext from webhook_endpoints where id = ?", [created.body.webhookEndpoint.id]);
  return { row: row!, secret: created.body.secret as string };
}

const decryptWith = (keys: { current: Buffer; previous?: Buffer[] }, row: Row) => new SecretCipher(keys).decrypt(row.secret_ciphertext, secretContext(row.tenant_id, row.id));
const reread = async (row: Row) => (await sql<Row>("select id, tenant_id, secret_ciphertext from webhook_endpoints where id = ?", [row.id]))[0]!;

/** `npm run webhooks:reencrypt-secrets` as an operator runs it, against the suite's database. */
function reencryptCommand(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "src/main/reencrypt-webhook-secrets.ts"], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("webhook secret keys as a keyring", () => {
  afterAll(async () => {
    // Back under the stack's key, for the API and worker of this run.
    await withDb((orm) => reencryptWebhookSecrets(orm.em.fork(), new SecretCipher({ current: stackKey(), previous: [newKey] })));
  });

  it("a start with a new current key re-encrypts nothing: a replica still on the old keyring decrypts every secret", async () => {
    const { row, secret } = await endpointWithSecret();
    await withDb((orm) => migrate(orm, new SecretCipher({ current: newKey, previous: [stackKey()] })));
    const after = await reread(row);
    expect(after.secret_ciphertext).toBe(row.secret_ciphertext);
    expect(decryptWith({ current: stackKey() }, after)).toBe(secret);
  });

  it("the explicit command re-encrypts under the first key of WEBHOOK_SECRET_KEYS; the new keyring decrypts, the old one no longer", async () => {
    const { row, secret } = await endpointWithSecret();
    const run = await reencryptCommand({
      DATABASE_URL: inject("stackEnv").DATABASE_URL!,
      WEBHOOK_SECRET_KEY: "",
      WEBHOOK_SECRET_PREVIOUS_KEYS: "",
      WEBHOOK_SECRET_KEYS: keyring(newKey, stackKey()),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/re-encrypted the secrets of [1-9]\d* webhook endpoint/);
    const after = await reread(row);
    expect(after.secret_ciphertext.split(".")[1]).toBe(secretKeyId(newKey));
    expect(decryptWith({ current: newKey, previous: [stackKey()] }, after)).toBe(secret);
    expect(() => decryptWith({ current: stackKey() }, after)).toThrow(/not configured/);
  });
});
