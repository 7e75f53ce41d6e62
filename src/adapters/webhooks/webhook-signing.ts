import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * The three Standard Webhooks headers for one attempt; `msgId` is the same on every retry. One
 * `v1,` signature per secret, space-separated: during a rotation's overlap the receiver may still
 * know only the old one.
 */
export function signatureHeaders(secrets: readonly string[], msgId: string, at: Date, body: string): Record<string, string> {
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(msgId, at, body)).join(" "),
  };
}
