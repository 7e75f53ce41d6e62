import { raw } from "@mikro-orm/core";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { DeliveryEndpoint, FanOutPlan, WebhookOutbox } from "../../app/webhooks/delivery/port.js";
import type { DeliveryRef, DeliveryStatus } from "../../domain/webhooks/delivery.js";
import type { DeliveryCandidate, InFlight } from "../../domain/webhooks/fair-share.js";
import { secretContext, type SecretCipher } from "../webhooks/secret-cipher.js";
import { WebhookDeliveryRow } from "./entities/webhook-delivery.js";
import { WebhookEndpointRow } from "./entities/webhook-endpoint.js";
import { inTransaction, withDatabase } from "./database-work.js";
import { readUnstarted } from "./unstarted-webhook-deliveries.js";
import { insertDeliveries } from "./webhook-delivery-inserts.js";
import { claimUndispatched, markDispatched, withObjects } from "./webhook-outbox-entries.js";

/**
 * The webhook outbox: audit entries become deliveries, deliveries become workflows, and each
 * delivery's attempts are recorded. Dispatch is one transaction, so an entry is either still
 * undispatched or has all its deliveries.
 */
export class WebhookOutboxStore implements WebhookOutbox {
  constructor(
    private readonly orm: MikroORM,
    private readonly cipher: SecretCipher,
  ) {}

  /**
   * Claims up to `limit` undispatched entries (SKIP LOCKED: concurrent dispatchers take other
   * rows), inserts the deliveries `plan` makes of them (a delivery that exists stays as it is),
   * and marks the entries dispatched. Answers how many entries it claimed.
   */
  async fanOut(limit: number, at: Date, plan: FanOutPlan): Promise<{ claimed: number; deliveries: number }> {
    return inTransaction(this.orm, async (em) => {
      const rows = await claimUndispatched(em, limit);
      if (rows.length === 0) return { claimed: 0, deliveries: 0 };
      const tenants = [...new Set(rows.map((r) => r.tenant_id))];
      const endpoints = await em.find(WebhookEndpointRow, { tenantId: { $in: tenants }, enabled: true }, { fields: ["id", "tenantId", "eventTypes"] });
      const subscriptions = endpoints.map((e) => ({ tenantId: e.tenantId, endpointId: e.id, eventTypes: e.eventTypes ?? [] }));
      const watched = new Set(subscriptions.map((s) => s.tenantId));
      const entries = await withObjects(em, rows.filter((r) => watched.has(r.tenant_id)));
      const deliveries = plan(entries, subscriptions);
      const inserted = deliveries.length > 0 ? await insertDeliveries(em, deliveries, at) : 0;
      await markDispatched(em, rows.map((r) => r.id), at);
      return { claimed: rows.length, deliveries: inserted };
    });
  }

  /** See readUnstarted; `fairClaim` (src/domain/webhooks/fair-share.ts) decides which of them start. */
  async unstarted(limits: { perEndpoint: number; perTenant: number }): Promise<{ candidates: DeliveryCandidate[]; inFlight: InFlight }> {
    return withDatabase(this.orm, (em) => readUnstarted(em, limits));
  }

  async markStarted(ids: string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await withDatabase(this.orm, (em) => em.nativeUpdate(WebhookDeliveryRow, { id: { $in: ids }, workflowStartedAt: null }, { workflowStartedAt: at }));
  }

  async findDelivery(tenantId: string, id: string): Promise<WebhookDeliveryRow | undefined> {
    return (await withDatabase(this.orm, (em) => em.findOne(WebhookDeliveryRow, { tenantId, id }))) ?? undefined;
  }

  /** With its secrets decrypted: for signing only, never for an API answer. */
  async findEndpoint(tenantId: string, id: string): Promise<DeliveryEndpoint | undefined> {
    const row = await withDatabase(this.orm, (em) => em.findOne(WebhookEndpointRow, { tenantId, id }));
    if (!row) return undefined;
    const context = secretContext(tenantId, id);
    const previous = row.previousSecretCiphertext ? this.cipher.decrypt(row.previousSecretCiphertext, context) : undefined;
    return {
      id: row.id,
      url: row.url,
      enabled: row.enabled,
      disabledReason: row.disabledReason ?? undefined,
      // A plain secret only between migration 0005 and encryptWebhookSecrets.
      secret: row.secretCiphertext ? this.cipher.decrypt(row.secretCiphertext, context) : (row.secret ?? ""),
      ...(previous !== undefined && row.previousSecretExpiresAt ? { previousSecret: previous, previousSecretExpiresAt: new Date(row.previousSecretExpiresAt) } : {}),
    };
  }

  /** One attempt that did not succeed; the delivery stays PENDING for the next one. */
  async recordFailedAttempt(ref: DeliveryRef, statusCode: number | null, error: string, at: Date): Promise<void> {
    await this.settle(ref, { attempts: raw("attempts + 1"), lastStatusCode: statusCode, lastError: error, lastAttemptAt: at });
  }

  async markDelivered(ref: DeliveryRef, statusCode: number, at: Date): Promise<void> {
    await this.settle(ref, {
      status: "DELIVERED" satisfies DeliveryStatus,
      attempts: raw("attempts + 1"),
      lastStatusCode: statusCode,
      lastError: null,
      lastAttemptAt: at,
      deliveredAt: at,
    });
  }

  /** The endpoint answered 410: it is disabled, and this delivery ends with it. */
  async markEndpointGone(ref: DeliveryRef, endpointId: string, reason: string, at: Date): Promise<void> {
    await inTransaction(this.orm, async (em) => {
      await em.nativeUpdate(WebhookEndpointRow, { tenantId: ref.tenantId, id: endpointId }, { enabled: false, disabledReason: reason, updatedAt: at });
      await em.nativeUpdate(
        WebhookDeliveryRow,
        { tenantId: ref.tenantId, id: ref.deliveryId, status: "PENDING" },
        { status: "ENDPOINT_DISABLED", attempts: raw("attempts + 1"), lastStatusCode: 410, lastError: reason, lastAttemptAt: at },
      );
    });
  }

  /**
   * Ends a delivery without an attempt: its endpoint is gone or disabled, its URL is refused, or
   * its retries are spent (no `error`: the last attempt's stays).
   */
  async finish(ref: DeliveryRef, status: Exclude<DeliveryStatus, "PENDING" | "DELIVERED">, error?: string): Promise<void> {
    await this.settle(ref, error === undefined ? { status } : { status, lastError: error });
  }

  private async settle(ref: DeliveryRef, data: Record<string, unknown>): Promise<void> {
    await withDatabase(this.orm, (em) => em.nativeUpdate(WebhookDeliveryRow, { tenantId: ref.tenantId, id: ref.deliveryId, status: "PENDING" }, data));
  }
}
