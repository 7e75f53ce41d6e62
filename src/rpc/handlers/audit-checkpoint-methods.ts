import type { ServiceImpl } from "@connectrpc/connect";
import type { AuditService } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import type { CheckpointDeps } from "../../app/audit/checkpoints/checkpoint-deps.js";
import { listAuditCheckpoints } from "../../app/audit/checkpoints/list-audit-checkpoints.js";
import { signChainHead } from "../../app/audit/checkpoints/sign-chain-head.js";
import { actorOf } from "./actor.js";
import { toCheckpointMessage } from "./audit-chain-mapper.js";

type CheckpointMethods = Pick<ServiceImpl<typeof AuditService>, "createAuditCheckpoint" | "listAuditCheckpoints" | "listAuditSigningKeys">;

/** The AuditService's checkpoint and key methods (spread into it by audit-service.ts): translation only. */
export function auditCheckpointMethods(deps: CheckpointDeps): CheckpointMethods {
  return {
    async createAuditCheckpoint(_req, ctx) {
      const { checkpoint, created } = await signChainHead(deps, actorOf(ctx).tenantId);
      return { checkpoint: checkpoint && toCheckpointMessage(checkpoint), created };
    },
    async listAuditCheckpoints(req, ctx) {
      const page = await listAuditCheckpoints(deps.checkpoints, actorOf(ctx), { pageSize: req.pageSize, pageToken: req.pageToken });
      return { checkpoints: page.items.map(toCheckpointMessage), nextPageToken: page.nextPageToken };
    },
    listAuditSigningKeys() {
      return { keys: deps.keys.published.map((key) => ({ ...key, algorithm: "Ed25519" })) };
    },
  };
}
