/**
 * `npm run -s audit:keygen -- [--key-id ID]` prints a fresh Ed25519 key for signing audit
 * checkpoints: the AUDIT_SIGNING_KEY line to configure, the entry that goes into
 * AUDIT_RETIRED_PUBLIC_KEYS once the key is rotated out, and the public key in PEM for auditors.
 * The id defaults to the day's date, so that keys rotated on different days never share one.
 */
import { generateKeyPairSync } from "node:crypto";
import { parseArgs } from "node:util";
import { auditKeySettings } from "../config/audit.js";
import { ConfigError } from "../config/config-error.js";

const { values } = parseArgs({ options: { "key-id": { type: "string" } } });
const keyId = values["key-id"] ?? `audit-${new Date().toISOString().slice(0, 10)}`;
try {
  const { signingKey, retiredPublicKey, publicKeyPem } = auditKeySettings(keyId, generateKeyPairSync("ed25519").privateKey);
  process.stdout.write(
    `AUDIT_SIGNING_KEY=${signingKey}\n\n` +
      `# Once rotated out, add this entry to AUDIT_RETIRED_PUBLIC_KEYS (comma-separated):\n# ${retiredPublicKey}\n\n` +
      `# The public key (served at /.well-known/audit-signing-keys.json):\n${publicKeyPem}`,
  );
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
