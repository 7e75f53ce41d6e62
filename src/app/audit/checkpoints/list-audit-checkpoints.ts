import type { Actor } from "../../../domain/actor.js";
import type { Checkpoint } from "../../../domain/audit/chain/chain-link.js";
import { readPage, type Page } from "../../../domain/pagination.js";
import type { AuditCheckpointStore } from "../port.js";

const SEQUENCE = /^\d{1,18}$/;

/**
 * The caller's tenant's checkpoints, newest first, one keyset page. The page token's position is
 * the last checkpoint's sequence (its id; the time is informative): sequences order checkpoints
 * uniquely, signing times need not.
 */
export function listAuditCheckpoints(checkpoints: AuditCheckpointStore, actor: Actor, request: { pageSize: number; pageToken: string }): Promise<Page<Checkpoint>> {
  return readPage(
    { ...request, filterKey: "audit-checkpoints" },
    (after, limit) => checkpoints.page(actor.tenantId, after, limit),
    (checkpoint) => ({ at: checkpoint.signedAt, id: String(checkpoint.sequence) }),
    (id) => SEQUENCE.test(id),
  );
}
