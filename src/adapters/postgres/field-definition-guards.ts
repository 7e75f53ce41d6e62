import type { EntityManager } from "@mikro-orm/postgresql";
import type { DefinitionCountGuard, IndexedFieldGuard } from "../../app/customfields/port.js";

// Limits a definition write checks inside its own transaction, each counted under a lock.

/** Any constant: with the tenant's hash, the lock that serializes a tenant's guarded writes. */
const INDEXED_FIELDS_LOCK = 0x6366_6978;

/**
 * Takes the tenant's transaction-scoped lock, then counts (with a snapshot taken after the lock, so
 * the previous holder's commit is seen) the tenant's other live indexed definitions for `guard`.
 */
export async function checkIndexedFields(em: EntityManager, tenantId: string, id: string, guard: IndexedFieldGuard): Promise<void> {
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
export async function checkDefinitionCount(em: EntityManager, tenantId: string, entityType: string, guard: DefinitionCountGuard): Promise<void> {
  await em.execute("select pg_advisory_xact_lock(?, hashtext(?))", [DEFINITION_COUNT_LOCK, `${tenantId}/${entityType}`]);
  const [row] = await em.execute<{ count: number }[]>(
    "select count(*)::int as count from custom_field_definitions where tenant_id = ? and entity_type = ? and deleted_at is null",
    [tenantId, entityType],
  );
  guard(row?.count ?? 0);
}
