import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { NewWebhookEndpoint, SecretRotation, WebhookEndpointChanges, WebhookEndpointCatalog } from "../../app/webhooks/port.js";
import type { Cursor } from "../../domain/pagination.js";
import type { WebhookEndpointView } from "../../domain/webhooks/endpoint.js";
import { secretContext, type SecretCipher } from "../webhooks/secret-cipher.js";
import { WebhookEndpointRow } from "./entities/webhook-endpoint.js";
import { inTransaction, withDatabase } from "./database-work.js";
import { keysetAfter, keysetOrderBy } from "./keyset.js";

/** A tenant's webhook endpoints; every statement is scoped by tenant. Secrets are stored encrypted. */
export class WebhookEndpointStore implements WebhookEndpointCatalog {
  constructor(
    private readonly orm: MikroORM,
    private readonly cipher: SecretCipher,
  ) {}

  /** Count and insert under the tenant's advisory lock: two creates at once cannot both take the last place. */
  async insert(endpoint: NewWebhookEndpoint, maxPerTenant: number): Promise<WebhookEndpointView | undefined> {
    const { secret, ...rest } = endpoint;
    const row: WebhookEndpointRow = {
      ...rest,
      secret: null,
      secretCiphertext: this.cipher.encrypt(secret, secretContext(endpoint.tenantId, endpoint.id)),
      previousSecretCiphertext: null,
      previousSecretExpiresAt: null,
      enabled: true,
      disabledReason: null,
      updatedAt: endpoint.createdAt,
    };
    return inTransaction(this.orm, async (em) => {
      await em.execute(`select pg_advisory_xact_lock(hashtextextended('webhook-endpoints:' || ?, 0))`, [endpoint.tenantId]);
      if ((await em.count(WebhookEndpointRow, { tenantId: endpoint.tenantId })) >= maxPerTenant) return undefined;
      await em.insert(WebhookEndpointRow, row);
      return toEndpointView(row);
    });
  }

  async rotateSecret(rotation: SecretRotation): Promise<WebhookEndpointView | undefined> {
    const { tenantId, id, at } = rotation;
    return inTransaction(this.orm, async (em) => {
      const rows = (await em.execute(`select secret, secret_ciphertext from webhook_endpoints where tenant_id = ? and id = ? for update`, [tenantId, id])) as {
        secret: string | null;
        secret_ciphertext: string | null;
      }[];
      const current = rows[0];
      if (!current) return undefined;
      const context = secretContext(tenantId, id);
      // Not yet moved by encryptWebhookSecrets: the plain secret becomes the previous one, encrypted.
      const previous = current.secret !== null ? this.cipher.encrypt(current.secret, context) : current.secret_ciphertext;
      await em.nativeUpdate(
        WebhookEndpointRow,
        { tenantId, id },
        {
          secret: null,
          secretCiphertext: this.cipher.encrypt(rotation.secret, context),
          previousSecretCiphertext: previous,
          previousSecretExpiresAt: rotation.previousSecretExpiresAt,
          updatedAt: at,
        },
      );
      await em.execute(
        `insert into webhook_endpoint_audit (id, tenant_id, endpoint_id, action, actor_id, request_id, details, occurred_at) values (?, ?, ?, 'SECRET_ROTATED', ?, ?, ?, ?)`,
        [rotation.audit.id, tenantId, id, rotation.audit.actorId, rotation.audit.requestId ?? null, JSON.stringify({ previousSecretExpiresAt: rotation.previousSecretExpiresAt.toISOString() }), at],
      );
      return toEndpointView(await em.findOneOrFail(WebhookEndpointRow, { tenantId, id }, { refresh: true }));
    });
  }

  async find(tenantId: string, id: string): Promise<WebhookEndpointView | undefined> {
    const row = await this.findRow(tenantId, id);
    return row ? toEndpointView(row) : undefined;
  }

  private async findRow(tenantId: string, id: string): Promise<WebhookEndpointRow | undefined> {
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
    previousSecretExpiresAt: row.previousSecretExpiresAt ? new Date(row.previousSecretExpiresAt) : undefined,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
}
