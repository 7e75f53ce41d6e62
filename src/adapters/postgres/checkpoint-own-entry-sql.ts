import { CHECKPOINT_ACTION, CHECKPOINT_CORRELATION_PREFIX } from "../../domain/audit/chain/checkpoint-entry.js";

/**
 * Whether the entry right after the newest checkpoint is that checkpoint's own
 * AUDIT_CHECKPOINT_SIGNED entry (src/domain/audit/chain/checkpoint-entry.ts): such a head counts
 * as signed. For a query with the tenant as `t.tenant_id` and the newest checkpoint's sequence
 * as `c.sequence` (null when there is none: then false). One probe of audit_chain_links' primary key.
 * Its parameters, in order: OWN_ENTRY_NEXT_PARAMS.
 */
export const OWN_ENTRY_NEXT = `exists (
  select 1 from audit_chain_links ol join audit_entries o on o.id = ol.entry_id
   where ol.tenant_id = t.tenant_id and ol.sequence = c.sequence + 1
     and o.action = ? and o.correlation_id = ?::text || c.sequence::text)`;

export const OWN_ENTRY_NEXT_PARAMS: readonly string[] = [CHECKPOINT_ACTION, CHECKPOINT_CORRELATION_PREFIX];
