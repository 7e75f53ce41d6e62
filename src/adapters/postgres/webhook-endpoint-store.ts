import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { NewWebhookEndpoint, WebhookEndpointChanges, WebhookEndpointStorePort } from "../../app/webhooks/port.js";
import type { Cursor } from "../../domain/pagination.js";
import type { WebhookEndpointView } from "../../domain/webhooks/endpoint.js";
import { WebhookEndpointRow } from "./entities/webhook-endpoint.js";
import { withDatabase } from "./database-work.js";
import { keysetAfter, keysetOrderBy } from "./keyset.js";

/** A tenant's webhook endpoints; every statement is scoped by tenant. */
export class WebhookEndpointStore implements WebhookEndpointStorePort {
  constructor(private readonly orm: MikroORM) {}

  async insert(endpoint: NewWebhookEndpoint): Promise<WebhookEndpointView> {
    const row: WebhookEndpointRow = { ...endpoint, enabled: true, disabledReason: null, updatedAt: endpoint.createdAt };
    await withDatabase(this.orm, (em) => em.insert(WebhookEndpointRow, row));
    return toEndpointView(row);
  }

  async find(tenantId: string, id: string): Promise<WebhookEndpointView | undefined> {
    const row = await this.findRow(tenantId, id);
    return row ? toEndpointView(row) : undefined;
  }

  /** With the secret: for signing only, never for an API answer. */
  async findRow(tenantId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    return (await withDatabase(this.orm, (em) => em.findOne(WebhookEndpointRow, { tenantId, id }))) ?? undefined;
  }

  async list(tenantId: string, after: Cursor | undefined, limit: number): Promise<WebhookEndpointView[]> {
    const where = { tenantId, ...keysetAfter("createdAt", "desc", after) };
    const rows = await withDatabase(this.orm, (em) => em.find(WebhookEndpointRow, where, { orderBy: keysetOrderBy("createdAt", "desc"), limit }));
    return rows.map(toEndpointView);
  }

  async update(tenantId: string, id: string, changes: WebhookEndpointChanges, at: Date): Promise<WebhookEndpointView | undefined> {
    return withDatabase(this.orm, (em) =>
      em.transactional(async (tx) => {
        const changed = await tx.nativeUpdate(WebhookEndpointRow, { tenantId, id }, { ...changes, updatedAt: at });
        if (changed === 0) return undefined;
        return toEndpointView(await tx.findOneOrFail(WebhookEndpointRow, { tenantId, id }, { refresh: true }));
      }),
    );
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await withDatabase(this.orm, (em) => em.nativeDelete(WebhookEndpointRow, { tenantId, id }))) > 0;
  }

}

export function toEndpointView(row: WebhookEndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    tenantId: row.tenantId,
    url: row.url,
    eventTypes: row.eventTypes ?? [],
    enabled: row.enabled,
    disabledReason: row.disabledReason ?? undefined,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
}
