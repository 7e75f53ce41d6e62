/**
 * In-memory fakes of the ports behind the RPC handlers that have none elsewhere (customers, products,
 * webhook endpoints, the lifecycle client, readiness). Each keeps the rule of its real adapter
 * that the API shows: every read scoped by tenant, versions checked on write, newest first.
 * The SQL itself (and custom field filters, which compile to SQL) is the adapters' and is
 * tested against PostgreSQL in test/integration.
 */
import { generateKeyPairSync } from "node:crypto";
import type { AuditChainReader, AuditCheckpointStore, AuditEntryView, AuditSigningKeys, AuditTrail } from "../../../src/app/audit/port.js";
import type { CustomerExactFilter, CustomerFields, CustomerCatalog } from "../../../src/app/customers/port.js";
import type { CustomFieldEntity, CustomFieldEntityChanges, CustomFieldEntityQuery, CustomFieldEntityCatalog } from "../../../src/app/entities/port.js";
import { fileStorageDeps, type FileStorageDeps } from "../../../src/app/files/deps.js";
import type { Readiness } from "../../../src/app/readiness.js";
import type { NewWebhookEndpoint, SecretRotation, WebhookEndpointChanges, WebhookEndpointCatalog } from "../../../src/app/webhooks/port.js";
import type { Cursor } from "../../../src/domain/pagination.js";
import type { WebhookEndpointView } from "../../../src/domain/webhooks/endpoint.js";
import type { AuditQuery } from "../../../src/domain/audit/audit-query.js";
import { v7 as uuidv7 } from "uuid";
import type { Config } from "../../../src/config/config.js";
import { FakeObjects, FakeStorage } from "../files/lifecycle/fakes.js";
import type { OrganizationProfiles } from "../../../src/app/organization/port.js";
import { defaultProfile, type OrganizationProfile, type OrganizationProfileChanges } from "../../../src/domain/organization/profile.js";

/** Newest first, then by id: the keyset order of every list. */
function newestFirst<T extends { id: string }>(rows: T[], at: (row: T) => Date, after: Cursor | undefined, limit: number): T[] {
  const time = (row: T) => at(row).getTime();
  return rows
    .filter((r) => !after || time(r) < after.at.getTime() || (time(r) === after.at.getTime() && r.id < after.id))
    .sort((a, b) => time(b) - time(a) || b.id.localeCompare(a.id))
    .slice(0, limit);
}

/**
 * Any entity with custom fields (the store of src/adapters/postgres/custom-field-entity-store.ts):
 * own columns written when given, custom fields merged, exact filters on own columns.
 */
export class MemoryEntityStore<F extends object, X extends object> implements CustomFieldEntityCatalog<F, X> {
  readonly rows = new Map<string, CustomFieldEntity<F>>();
  /** The last list query, as the use case compiled it: what the SQL adapter would receive. */
  lastQuery?: CustomFieldEntityQuery<X>;

  async insert(entity: CustomFieldEntity<F>) {
    this.rows.set(entity.id, structuredClone(entity));
  }
  async find(tenantId: string, id: string) {
    const row = this.rows.get(id);
    return row?.tenantId === tenantId ? structuredClone(row) : undefined;
  }
  async update(tenantId: string, id: string, changes: CustomFieldEntityChanges<F>, at: Date) {
    const row = await this.find(tenantId, id);
    if (!row || (changes.expectedVersion !== undefined && changes.expectedVersion !== row.version)) return undefined;
    const { expectedVersion: _version, customFields, ...own } = changes;
    const given = Object.fromEntries(Object.entries(own).filter(([, value]) => value !== undefined));
    const next: CustomFieldEntity<F> = { ...row, ...given, customFields: { ...row.customFields, ...customFields }, version: row.version + 1, updatedAt: at };
    this.rows.set(id, next);
    return structuredClone(next);
  }
  /** Exact filters only: custom field clauses are SQL (see lastQuery). */
  async list(tenantId: string, query: CustomFieldEntityQuery<X>, after: Cursor | undefined, limit: number) {
    this.lastQuery = structuredClone(query);
    const { customFilter: _sql, ...exact } = query;
    const matches = (row: CustomFieldEntity<F>) =>
      Object.entries(exact).every(([column, value]) => value === undefined || (row as Record<string, unknown>)[column] === value);
    const rows = [...this.rows.values()].filter((row) => row.tenantId === tenantId && matches(row));
    return newestFirst(rows, (row) => row.createdAt, after, limit).map((row) => structuredClone(row));
  }
}

export class MemoryCustomerStore extends MemoryEntityStore<CustomerFields, CustomerExactFilter> implements CustomerCatalog {}

/** One profile per tenant; an upsert writes the given fields over the stored or default profile. */
export class MemoryOrganizationProfileStore implements OrganizationProfiles {
  readonly rows = new Map<string, OrganizationProfile>();

  async find(tenantId: string) {
    const row = this.rows.get(tenantId);
    return row ? structuredClone(row) : undefined;
  }
  async upsert(tenantId: string, changes: OrganizationProfileChanges) {
    const before = this.rows.get(tenantId) ?? defaultProfile(tenantId);
    const next = { ...before, ...structuredClone(changes), version: before.version + 1 };
    this.rows.set(tenantId, next);
    return structuredClone(next);
  }
}

type MemoryEndpointRow = WebhookEndpointView & { secret: string; previousSecret?: string };

export class MemoryWebhookEndpointStore implements WebhookEndpointCatalog {
  readonly rows = new Map<string, MemoryEndpointRow>();
  readonly audit: (SecretRotation["audit"] & { tenantId: string; endpointId: string })[] = [];

  async insert(endpoint: NewWebhookEndpoint, maxPerTenant: number) {
    if ([...this.rows.values()].filter((r) => r.tenantId === endpoint.tenantId).length >= maxPerTenant) return undefined;
    const row = { ...endpoint, enabled: true, updatedAt: endpoint.createdAt };
    this.rows.set(endpoint.id, row);
    return this.view(row);
  }
  async rotateSecret(rotation: SecretRotation) {
    const row = this.rows.get(rotation.id);
    if (row?.tenantId !== rotation.tenantId) return undefined;
    Object.assign(row, { previousSecret: row.secret, secret: rotation.secret, previousSecretExpiresAt: rotation.previousSecretExpiresAt, updatedAt: rotation.at });
    this.audit.push({ ...rotation.audit, tenantId: rotation.tenantId, endpointId: rotation.id });
    return this.view(row);
  }
  async find(tenantId: string, id: string) {
    const row = this.rows.get(id);
    return row?.tenantId === tenantId ? this.view(row) : undefined;
  }
  async list(tenantId: string, after: Cursor | undefined, limit: number) {
    const rows = [...this.rows.values()].filter((r) => r.tenantId === tenantId);
    return newestFirst(rows, (r) => r.createdAt, after, limit).map((r) => this.view(r));
  }
  async update(tenantId: string, id: string, changes: WebhookEndpointChanges, at: Date) {
    const row = this.rows.get(id);
    if (row?.tenantId !== tenantId) return undefined;
    Object.assign(row, { ...changes, disabledReason: changes.disabledReason === null ? undefined : (changes.disabledReason ?? row.disabledReason), updatedAt: at });
    return this.view(row);
  }
  async delete(tenantId: string, id: string) {
    return this.rows.get(id)?.tenantId === tenantId && this.rows.delete(id);
  }
  private view({ secret: _secret, previousSecret: _previous, ...endpoint }: MemoryEndpointRow): WebhookEndpointView {
    return structuredClone(endpoint);
  }
}

type LifecyclePort = FileStorageDeps["lifecycle"];

/** File storage's dependencies over empty fakes, as the handlers and use cases get them. */
export function fakeFileStorage<Trail extends AuditTrail>(config: Config, now: Date, trailOf: (objects: FakeObjects) => Trail) {
  const objects = new FakeObjects();
  const storage = new FakeStorage();
  const lifecycle = new FakeLifecycle((tenantId, objectId) => objects.findLive(tenantId, objectId));
  const trail = trailOf(objects);
  const deps = fileStorageDeps(config, { store: objects, trail, storage, lifecycle, now: () => now, newId: () => uuidv7() });
  return { deps, objects, storage, lifecycle, trail };
}

/** The Temporal side of the files use cases: records what it was asked; complete answers the row as it is. */
export class FakeLifecycle implements LifecyclePort {
  readonly calls: { method: string; objectId: string }[] = [];
  constructor(private readonly current: (tenantId: string, objectId: string) => Promise<unknown>) {}

  /** Set to make the next start fail after the call, as a start whose answer was lost does. */
  failNextStart?: Error;

  async start(ref: { objectId: string }) {
    this.calls.push({ method: "start", objectId: ref.objectId });
    const failure = this.failNextStart;
    this.failNextStart = undefined;
    if (failure) throw failure;
  }
  async withdraw(ref: { objectId: string }) {
    this.calls.push({ method: "withdraw", objectId: ref.objectId });
  }
  async discard(ref: { objectId: string }) {
    this.calls.push({ method: "discard", objectId: ref.objectId });
  }
  async retentionChanged(ref: { objectId: string }) {
    this.calls.push({ method: "retentionChanged", objectId: ref.objectId });
  }
  async complete(ref: { tenantId: string; objectId: string }) {
    this.calls.push({ method: "complete", objectId: ref.objectId });
    return (await this.current(ref.tenantId, ref.objectId)) as never;
  }
}

/** The audit trail as the files fake wrote it: an object's entries, oldest first (its own unit tests cover the search). */
export class FakeAuditTrail implements AuditTrail {
  constructor(private readonly objects: FakeObjects) {}

  async search(tenantId: string, query: AuditQuery): Promise<AuditEntryView[]> {
    const entries = this.objects.auditLog
      .map((a, index): AuditEntryView => ({
        id: `00000000-0000-7000-8000-${String(index).padStart(12, "0")}`,
        objectId: a.objectId,
        action: a.action,
        actorId: a.actor.actorId,
        requestId: a.actor.requestId ?? null,
        correlationId: a.actor.correlationId ?? a.actor.requestId ?? "",
        result: a.result ?? "SUCCESS",
        details: a.details ?? null,
        occurredAt: a.at,
      }))
      .filter((e) => this.objects.rows.get(e.objectId)?.tenantId === tenantId && (!query.filter.objectId || e.objectId === query.filter.objectId));
    return (query.order === "newest_first" ? entries.reverse() : entries).slice(0, query.limit);
  }
  async objectExists(tenantId: string, objectId: string) {
    return this.objects.rows.get(objectId)?.tenantId === tenantId;
  }
  async sessionsOf() {
    return [];
  }
  async countByTenant() {
    return new Map<string, number>();
  }
  /** The fake writes no chain: its entries are not sealed (the chain is tested against PostgreSQL). */
  async chainPage() {
    return [];
  }
  async unsealedPage() {
    return [];
  }
}

/** A chain with no entries and no checkpoints, signed by a key made for the test. */
export function emptyAuditChain(): { chain: AuditChainReader; checkpoints: AuditCheckpointStore; keys: AuditSigningKeys } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    chain: { head: async () => undefined, links: async () => [], unsealed: async () => [] },
    checkpoints: { from: async () => [], latest: async () => undefined, page: async () => [], insert: async (c) => c, tenantsToCheckpoint: async () => [] },
    keys: {
      current: { keyId: "test-1", privateKey },
      ring: new Map([["test-1", publicKey]]),
      published: [{ keyId: "test-1", publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(), current: true }],
    },
  };
}

export const allReady: Readiness = { check: async () => ({ ready: true, dependencies: {} }) };
