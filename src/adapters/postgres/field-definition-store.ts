import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { v7 as uuidv7 } from "uuid";
import type {
  DefinitionAudit,
  DefinitionAuditEntry,
  DefinitionChanges,
  DefinitionCountGuard,
  FieldDefinitionCatalog,
  IndexedFieldGuard,
} from "../../app/customfields/port.js";
import type { Cursor } from "../../domain/pagination.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";
import { AppError } from "../../domain/errors.js";
import { FieldDefinitionAuditRow } from "./entities/field-definition-audit.js";
import { FieldDefinitionRow } from "./entities/field-definition.js";
import { inTransaction, withDatabase } from "./database-work.js";
import { checkDefinitionCount, checkIndexedFields } from "./field-definition-guards.js";
import { toDefinition, toRow } from "./field-definition-rows.js";
import { keysetAfter, keysetOrderBy } from "./keyset.js";

const live = (tenantId: string, id: string) => ({ tenantId, id, deletedAt: null });

/**
 * Field definitions in PostgreSQL. Changes state their version condition in the UPDATE itself, so
 * an update decided on a stale read changes nothing; each change and its audit row commit together.
 */
export class FieldDefinitionStore implements FieldDefinitionCatalog {
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
