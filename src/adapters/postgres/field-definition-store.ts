import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { v7 as uuidv7 } from "uuid";
import type {
  DefinitionAudit,
  DefinitionAuditEntry,
  DefinitionChanges,
  DefinitionCountGuard,
  FieldDefinitionStorePort,
  IndexedFieldGuard,
} from "../../app/customfields/port.js";
import type { Cursor } from "../../domain/pagination.js";
import type {
  DefaultStrategy,
  FieldDefinition,
  FieldType,
  FieldValidation,
  Rule,
  UiConfig,
} from "../../domain/customfields/definition.js";
import { AppError } from "../../domain/errors.js";
import { FieldDefinitionAuditRow } from "./entities/field-definition-audit.js";
import { FieldDefinitionRow } from "./entities/field-definition.js";
import { inTransaction, withDatabase } from "./database-work.js";
import { keysetAfter, keysetOrderBy } from "./keyset.js";

const live = (tenantId: string, id: string) => ({ tenantId, id, deletedAt: null });

/**
 * Field definitions in PostgreSQL. Changes state their version condition in the UPDATE itself, so
 * an update decided on a stale read changes nothing; each change and its audit row commit together.
 */
export class FieldDefinitionStore implements FieldDefinitionStorePort {
  constructor(private readonly orm: MikroORM) {}

  async listLive(tenantId: string, entityType: string): Promise<FieldDefinition[]> {
    const rows = await withDatabase(this.orm, (em) =>
      em.find(FieldDefinitionRow, { tenantId, entityType, deletedAt: null }, { orderBy: { displayOrder: "asc", fieldKey: "asc" } }),
    );
    return rows.map(toDefinition);
  }

  async findLive(tenantId: string, id: string): Promise<FieldDefinition | undefined> {
    const row = await withDatabase(this.orm, (em) => em.findOne(FieldDefinitionRow, live(tenantId, id)));
    return row ? toDefinition(row) : undefined;
  }

  async insert(def: FieldDefinition, audit: DefinitionAudit, guard?: IndexedFieldGuard, countGuard?: DefinitionCountGuard): Promise<void> {
    try {
      await inTransaction(this.orm, async (em) => {
        // Always before the indexed-field lock, so that two guarded writes never wait on each other crosswise.
        if (countGuard) await checkDefinitionCount(em, def.tenantId, def.entityType, countGuard);
        if (guard) await checkIndexedFields(em, def.tenantId, def.id, guard);
        await em.insert(FieldDefinitionRow, toRow(def));
        await writeAudit(em, def.tenantId, audit);
      });
    } catch (error) {
      // The partial unique index on live rows decides, so two racing creates cannot both win.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      throw new AppError("FIELD_KEY_EXISTS", `a field "${def.fieldKey}" already exists for ${def.entityType}`, {
        cause: error,
        violations: [{ field: "fieldKey", description: `"${def.fieldKey}" is already defined for ${def.entityType}` }],
      });
    }
  }

  async update(
    tenantId: string,
    id: string,
    fromVersion: number,
    changes: DefinitionChanges,
    audit: DefinitionAudit,
    guard?: IndexedFieldGuard,
  ): Promise<FieldDefinition | undefined> {
    return withDatabase(this.orm, (em) =>
      em.transactional(async (tx) => {
        if (guard) await checkIndexedFields(tx, tenantId, id, guard);
        const data: Record<string, unknown> = { version: fromVersion + 1, updatedAt: audit.at };
        for (const [key, value] of Object.entries(changes)) data[key] = value ?? null;
        const changed = await tx.nativeUpdate(FieldDefinitionRow, { ...live(tenantId, id), version: fromVersion }, data);
        if (changed === 0) return undefined;
        await writeAudit(tx, tenantId, audit);
        const row = await tx.findOneOrFail(FieldDefinitionRow, { tenantId, id });
        return toDefinition(row);
      }),
    );
  }

  async softDelete(tenantId: string, id: string, fromVersion: number, audit: DefinitionAudit): Promise<boolean> {
    return withDatabase(this.orm, (em) =>
      em.transactional(async (tx) => {
        const changed = await tx.nativeUpdate(
          FieldDefinitionRow,
          { ...live(tenantId, id), version: fromVersion },
          { deletedAt: audit.at, isActive: false, version: fromVersion + 1, updatedAt: audit.at },
        );
        if (changed === 0) return false;
        await writeAudit(tx, tenantId, audit);
        return true;
      }),
    );
  }

  async listAudit(tenantId: string, definitionId: string, after: Cursor | undefined, limit: number): Promise<DefinitionAuditEntry[]> {
    const rows = await withDatabase(this.orm, (em) =>
      em.find(
        FieldDefinitionAuditRow,
        { tenantId, definitionId, ...keysetAfter("occurredAt", "asc", after) },
        { orderBy: keysetOrderBy("occurredAt", "asc"), limit },
      ),
    );
    return rows.map((row) => ({ ...row }));
  }
}

/** Any constant: with the tenant's hash, the lock that serializes a tenant's guarded writes. */
const INDEXED_FIELDS_LOCK = 0x6366_6978;

/**
 * Takes the tenant's transaction-scoped lock, then counts (with a snapshot taken after the lock, so
 * the previous holder's commit is seen) the tenant's other live indexed definitions for `guard`.
 */
async function checkIndexedFields(em: EntityManager, tenantId: string, id: string, guard: IndexedFieldGuard): Promise<void> {
  await em.execute("select pg_advisory_xact_lock(?, hashtext(?))", [INDEXED_FIELDS_LOCK, tenantId]);
  const [row] = await em.execute<{ count: number }[]>(
    "select count(*)::int as count from custom_field_definitions where tenant_id = ? and indexed and deleted_at is null and id <> ?",
    [tenantId, id],
  );
  guard(row?.count ?? 0);
}

/** Any constant: with the hash of tenant and entity type, the lock that serializes their creates. */
const DEFINITION_COUNT_LOCK = 0x6366_6463;

/**
 * Takes the lock of the tenant's entity type, then counts its live definitions (the snapshot is
 * taken after the lock, so the previous holder's commit is seen): creates racing for the last
 * place cannot all take it.
 */
async function checkDefinitionCount(em: EntityManager, tenantId: string, entityType: string, guard: DefinitionCountGuard): Promise<void> {
  await em.execute("select pg_advisory_xact_lock(?, hashtext(?))", [DEFINITION_COUNT_LOCK, `${tenantId}/${entityType}`]);
  const [row] = await em.execute<{ count: number }[]>(
    "select count(*)::int as count from custom_field_definitions where tenant_id = ? and entity_type = ? and deleted_at is null",
    [tenantId, entityType],
  );
  guard(row?.count ?? 0);
}

async function writeAudit(em: EntityManager, tenantId: string, audit: DefinitionAudit): Promise<void> {
  await em.insert(FieldDefinitionAuditRow, {
    id: uuidv7(),
    tenantId,
    definitionId: audit.definitionId,
    action: audit.action,
    actorId: audit.actor.actorId,
    requestId: audit.actor.requestId ?? null,
    oldVersion: audit.oldVersion,
    newVersion: audit.newVersion,
    changes: audit.changes,
    occurredAt: audit.at,
  });
}

function toRow(def: FieldDefinition): FieldDefinitionRow {
  return Object.assign(new FieldDefinitionRow(), {
    ...def,
    description: def.description ?? null,
    defaultValue: def.defaultValue ?? null,
    computedFormula: def.computedFormula ?? null,
    validation: def.validation as Record<string, unknown>,
    uiConfig: def.uiConfig as unknown as Record<string, unknown>,
    deletedAt: def.deletedAt ?? null,
  });
}

/** Optional columns that are NULL are left out, so `deletedAt === undefined` means live. */
export function toDefinition(row: FieldDefinitionRow): FieldDefinition {
  const def: FieldDefinition = {
    id: row.id,
    tenantId: row.tenantId,
    entityType: row.entityType,
    fieldKey: row.fieldKey,
    fieldLabel: row.fieldLabel,
    fieldType: row.fieldType as FieldType,
    isRequired: row.isRequired,
    displayOrder: row.displayOrder,
    defaultStrategy: row.defaultStrategy as DefaultStrategy,
    defaultRules: (row.defaultRules ?? []) as Rule[],
    validation: (row.validation ?? {}) as FieldValidation,
    validationRules: (row.validationRules ?? []) as Rule[],
    uiConfig: { options: [], ...(row.uiConfig ?? {}) } as UiConfig,
    isActive: row.isActive,
    indexed: row.indexed,
    version: row.version,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
  if (row.description != null) def.description = row.description;
  if (row.defaultValue != null) def.defaultValue = row.defaultValue;
  if (row.computedFormula != null) def.computedFormula = row.computedFormula;
  if (row.deletedAt != null) def.deletedAt = new Date(row.deletedAt);
  return def;
}
