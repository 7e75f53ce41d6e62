import type { AuditQuery } from "../../domain/audit/audit-query.js";

/**
 * One page of an audit search as SQL. Every filter is an equality (or a range on occurred_at) on
 * a column that leads one of the audit indexes, and the order is the index's own (occurred_at, id),
 * so PostgreSQL answers with an index range scan and stops after `limit` rows.
 */
export function auditSearchSql(tenantId: string, query: AuditQuery): { sql: string; params: unknown[] } {
  const { filter } = query;
  const where: string[] = ["tenant_id = ?"];
  const params: unknown[] = [tenantId];
  const equal = (column: string, value: string | undefined) => {
    if (value === undefined || value === "") return;
    where.push(`${column} = ?`);
    params.push(value);
  };
  if (filter.actions?.length === 1) equal("action", filter.actions[0]);
  else if (filter.actions && filter.actions.length > 1) {
    where.push(`action in (${filter.actions.map(() => "?").join(", ")})`);
    params.push(...filter.actions);
  }
  equal("actor_id", filter.actorId);
  equal("object_id", filter.objectId);
  equal("owner_type", filter.ownerType);
  equal("owner_id", filter.ownerId);
  equal("object_class", filter.objectClass);
  equal("result", filter.result);
  equal("correlation_id", filter.correlationId);
  if (filter.occurredAfter) {
    where.push("occurred_at >= ?");
    params.push(filter.occurredAfter);
  }
  if (filter.occurredBefore) {
    where.push("occurred_at < ?");
    params.push(filter.occurredBefore);
  }
  const newestFirst = query.order === "newest_first";
  if (query.after) {
    where.push(`(occurred_at, id) ${newestFirst ? "<" : ">"} (?, ?)`);
    params.push(query.after.at, query.after.id);
  }
  const direction = newestFirst ? "desc" : "asc";
  const sql = `select ${AUDIT_COLUMNS} from audit_entries_chained where ${where.join(" and ")} order by occurred_at ${direction}, id ${direction} limit ?`;
  params.push(query.limit);
  return { sql, params };
}

/** The chain's columns come with every read: the canonical form is computed from the row as stored now. */
export const AUDIT_COLUMNS = `id, object_id, action, actor_id, request_id, correlation_id, result, details, occurred_at, object_class, owner_type, owner_id,
  chain_sequence, encode(chain_previous_hash, 'hex') as chain_previous_hash, encode(chain_hash, 'hex') as chain_hash,
  case when chain_sequence is not null then audit_entry_canonical(tenant_id, id, object_id, action, actor_id, request_id, correlation_id,
    result, occurred_at, object_class, owner_type, owner_id, details) end as chain_canonical`;
