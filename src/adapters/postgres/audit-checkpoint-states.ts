import type { MikroORM } from "@mikro-orm/postgresql";
import type { AuditCheckpointState } from "../../observability/audit-checkpoint-gauges.js";
import { OWN_ENTRY_NEXT, OWN_ENTRY_NEXT_PARAMS } from "./checkpoint-own-entry-sql.js";

/**
 * Every tenant's chain head with its newest checkpoint, for the metrics page: one row per tenant,
 * the checkpoint a backward step of audit_checkpoints' primary key, and whether the entry after
 * it is the checkpoint's own (not an unsigned entry to count). Errors stay as the driver threw
 * them: the metrics page only logs them.
 */
export async function readAuditCheckpointStates(orm: MikroORM): Promise<AuditCheckpointState[]> {
  const rows: Record<string, unknown>[] = await orm.em.fork().execute(
    `select t.tenant_id, h.sequence, c.sequence as checkpoint_sequence, c.signed_at, ${OWN_ENTRY_NEXT} as own_entry_next
       from audit_chain_tenants t
       cross join lateral (select max(l.sequence) as sequence from audit_chain_links l where l.tenant_id = t.tenant_id) h
       left join lateral (select sequence, signed_at from audit_checkpoints c where c.tenant_id = t.tenant_id order by sequence desc limit 1) c on true
      where h.sequence is not null`,
    [...OWN_ENTRY_NEXT_PARAMS],
  );
  return rows.map((row) => ({
    tenant: String(row.tenant_id),
    headSequence: Number(row.sequence),
    checkpoint:
      row.checkpoint_sequence === null
        ? undefined
        : { sequence: Number(row.checkpoint_sequence), signedAt: new Date(row.signed_at as string), ownEntryNext: row.own_entry_next === true },
  }));
}
