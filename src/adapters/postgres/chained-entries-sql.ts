/**
 * Audit entries with their chain link beside their own columns, as `chain_sequence`,
 * `chain_previous_hash` and `chain_hash` (the shape of the audit_entries_chained view, migration
 * 0013), for the reads that walk the chain rather than the time indexes.
 */

/**
 * A tenant's sealed entries in chain order, a range scan of audit_chain_links' primary key with
 * `condition` on the link `l`; parameters: the tenant, the condition's, the limit. A link whose
 * entry is gone drops out, leaving the gap the verifier names as a removal.
 */
export function chainedInOrder(condition: string): string {
  return `(select e.*, l.sequence as chain_sequence, l.previous_hash as chain_previous_hash, l.hash as chain_hash
             from audit_chain_links l join audit_entries e on e.id = l.entry_id
            where l.tenant_id = ? and ${condition} order by l.sequence limit ?) chained`;
}

/**
 * A tenant's entries without a link, in time order, `condition` on the entry `e`; parameters: the
 * tenant, the condition's, the limit. An anti-join over the tenant's entries: unsealed entries are
 * only those written with the chain off or behind the seal trigger's back.
 */
export function unsealedInOrder(condition = "true"): string {
  return `(select e.*, null::bigint as chain_sequence, null::bytea as chain_previous_hash, null::bytea as chain_hash
             from audit_entries e
            where e.tenant_id = ? and ${condition} and not exists (select 1 from audit_chain_links l where l.entry_id = e.id)
            order by e.occurred_at, e.id limit ?) unsealed`;
}
