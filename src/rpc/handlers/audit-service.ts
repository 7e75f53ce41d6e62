import type { ConnectRouter } from "@connectrpc/connect";
import { AuditService } from "../../../gen/filestorage/v1/audit_service_pb.js";
import { exportAuditEntries } from "../../app/audit/export-audit-entries.js";
import type { AuditTrail } from "../../app/audit/port.js";
import { searchAuditEntries } from "../../app/audit/search-audit-entries.js";
import { actorOf } from "./actor.js";
import { toAuditEntryMessage, toAuditFilter } from "./audit-entry-mapper.js";

/** Translates between the contract and the audit trail use cases, and nothing else. */
export function registerAuditService(router: ConnectRouter, trail: AuditTrail): void {
  router.service(AuditService, {
    async searchAuditEntries(req, ctx) {
      const page = await searchAuditEntries(trail, actorOf(ctx), {
        filter: toAuditFilter(req.filter),
        order: req.oldestFirst ? "oldest_first" : "newest_first",
        pageSize: req.pageSize,
        pageToken: req.pageToken,
      });
      return { auditEntries: page.items.map(toAuditEntryMessage), nextPageToken: page.nextPageToken };
    },
    async *exportAuditEntries(req, ctx) {
      for await (const entry of exportAuditEntries(trail, actorOf(ctx), toAuditFilter(req.filter))) {
        if (ctx.signal.aborted) return;
        yield { auditEntry: toAuditEntryMessage(entry) };
      }
    },
  });
}
