import { MemoryKeyValueStore } from "../../../src/adapters/cache/memory-key-value.js";
import { DefinitionCache } from "../../../src/app/customfields/definition-cache.js";
import type { CustomFieldsDeps } from "../../../src/app/customfields/deps.js";
import type {
  DefinitionAudit,
  DefinitionAuditEntry,
  DefinitionChanges,
  FieldDefinitionCatalog,
  IndexedFieldGuard,
} from "../../../src/app/customfields/port.js";
import type { Cursor } from "../../../src/domain/pagination.js";
import { AppError } from "../../../src/domain/errors.js";
import type { FieldDefinition } from "../../../src/domain/customfields/definition.js";

/** An in-memory definition store with the database's rules: live-key uniqueness, version conditions. */
export class MemoryDefinitionStore implements FieldDefinitionCatalog {
  readonly rows = new Map<string, FieldDefinition>();
  readonly audits: DefinitionAudit[] = [];
  /** Runs just before a conditional write, to simulate a concurrent writer. */
  beforeWrite?: () => void;

  async listLive(tenantId: string, entityType: string) {
    return [...this.rows.values()]
      .filter((d) => d.tenantId === tenantId && d.entityType === entityType && d.deletedAt === undefined)
      .map((d) => structuredClone(d));
  }

  async findLive(tenantId: string, id: string) {
    const row = this.rows.get(id);
    return row && row.tenantId === tenantId && row.deletedAt === undefined ? structuredClone(row) : undefined;
  }

  /** The store's count for an IndexedFieldGuard: the tenant's other live indexed definitions. */
  private checkIndexed(tenantId: string, id: string, guard: IndexedFieldGuard | undefined): void {
    if (!guard) return;
    guard([...this.rows.values()].filter((d) => d.tenantId === tenantId && d.id !== id && d.indexed && d.deletedAt === undefined).length);
  }

  async insert(def: FieldDefinition, audit: DefinitionAudit, guard?: IndexedFieldGuard) {
    this.checkIndexed(def.tenantId, def.id, guard);
    const clash = (await this.listLive(def.tenantId, def.entityType)).some((d) => d.fieldKey === def.fieldKey);
    if (clash) throw new AppError("FIELD_KEY_EXISTS", "exists");
    this.rows.set(def.id, structuredClone(def));
    this.audits.push(audit);
  }

  async update(tenantId: string, id: string, fromVersion: number, changes: DefinitionChanges, audit: DefinitionAudit, guard?: IndexedFieldGuard) {
    this.beforeWrite?.();
    this.checkIndexed(tenantId, id, guard);
    const row = await this.findLive(tenantId, id);
    if (!row || row.version !== fromVersion) return undefined;
    const next = { ...row, ...changes, version: fromVersion + 1, updatedAt: audit.at };
    for (const key of Object.keys(changes) as (keyof DefinitionChanges)[]) if (changes[key] === undefined) delete next[key];
    this.rows.set(id, next);
    this.audits.push(audit);
    return structuredClone(next);
  }

  async softDelete(tenantId: string, id: string, fromVersion: number, audit: DefinitionAudit) {
    this.beforeWrite?.();
    const row = await this.findLive(tenantId, id);
    if (!row || row.version !== fromVersion) return false;
    this.rows.set(id, { ...row, deletedAt: audit.at, isActive: false, version: fromVersion + 1, updatedAt: audit.at });
    this.audits.push(audit);
    return true;
  }

  async listAudit(tenantId: string, definitionId: string, after: Cursor | undefined, limit: number): Promise<DefinitionAuditEntry[]> {
    return this.audits
      .filter((a) => a.actor.tenantId === tenantId && a.definitionId === definitionId)
      .map((a, i) => ({ ...a, id: `00000000-0000-7000-8000-${String(i).padStart(12, "0")}`, actorId: a.actor.actorId, requestId: a.actor.requestId, occurredAt: a.at }))
      .filter((e) => !after || e.occurredAt > after.at || (e.occurredAt.getTime() === after.at.getTime() && e.id > after.id))
      .slice(0, limit);
  }
}

export function fakeDeps(now = new Date("2024-05-01T12:00:00Z")) {
  const store = new MemoryDefinitionStore();
  const kv = new MemoryKeyValueStore();
  const warnings: string[] = [];
  let ids = 0;
  const deps: CustomFieldsDeps = {
    store,
    cache: new DefinitionCache(kv, 3600),
    maxIndexedFields: 10,
    now: () => now,
    newId: () => `def${++ids}`,
    warn: (message) => void warnings.push(message),
  };
  return { deps, store, kv, warnings };
}

export const actor = { tenantId: "tenant-a", actorId: "user-7", requestId: "req-1" };

/** A create input with neutral defaults; tests name only what matters to them. */
export function createInput(fieldKey: string, overrides: Record<string, unknown> = {}) {
  return {
    entityType: "Customer",
    fieldKey,
    fieldLabel: fieldKey,
    fieldType: "string",
    isRequired: false,
    displayOrder: 0,
    defaultStrategy: "",
    defaultRules: [],
    validation: {},
    validationRules: [],
    uiConfig: { options: [] },
    isActive: true,
    indexed: false,
    ...overrides,
  };
}
