import type { ConnectRouter } from "@connectrpc/connect";
import { AuditService } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import type { AuditDeps } from "../../app/audit/deps.js";
import { exportAuditEntries } from "../../app/audit/export-audit-entries.js";
import { searchAuditEntries } from "../../app/audit/search-audit-entries.js";
import { verifyAuditTrail } from "../../app/audit/verify-audit-trail.js";
import { actorOf } from "./actor.js";
import { toCheckpointMessage, toVerificationMessage } from "./audit-chain-mapper.js";
import { auditCheckpointMethods } from "./audit-checkpoint-methods.js";
import { toAuditEntryMessage, toAuditFilter } from "./audit-entry-mapper.js";

/** Translates between the contract and the audit trail use cases, and nothing else. */
export function registerAuditService(router: ConnectRouter, deps: AuditDeps): void {
  router.service(AuditService, {
    ...auditCheckpointMethods(deps),
    async searchAuditEntries(req, ctx) {
      const page = await searchAuditEntries(deps.trail, actorOf(ctx), {
        filter: toAuditFilter(req.filter),
        order: req.oldestFirst ? "oldest_first" : "newest_first",
        pageSize: req.pageSize,
        pageToken: req.pageToken,
      });
      return { auditEntries: page.items.map(toAuditEntryMessage), nextPageToken: page.nextPageToken };
    },
    async *exportAuditEntries(req, ctx) {
      for await (const item of exportAuditEntries(deps, actorOf(ctx), toAuditFilter(req.filter), Number(req.afterSequence))) {
        if (ctx.signal.aborted) return;
        yield "entry" in item ? { auditEntry: toAuditEntryMessage(item.entry) } : { checkpoint: toCheckpointMessage(item.checkpoint) };
      }
    },
    async verifyAuditTrail(req, ctx) {
      const report = await verifyAuditTrail(deps, actorOf(ctx).tenantId, { fromSequence: Number(req.fromSequence), toSequence: Number(req.toSequence) });
      return toVerificationMessage(report);
    },
  });
}
