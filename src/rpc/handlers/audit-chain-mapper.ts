import type { MessageInitShape } from "@bufbuild/protobuf";
import { AuditChainProblemKind, type VerifyAuditTrailResponseSchema } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import type { AuditCheckpointSchema } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import type { AuditTrailVerification } from "../../app/audit/verify-audit-trail.js";
import type { Checkpoint } from "../../domain/audit/chain/chain-link.js";
import { checkpointPayload } from "../../domain/audit/chain/checkpoint-payload.js";
import { enumValue, ts } from "./stored-object-message.js";

export function toCheckpointMessage(checkpoint: Checkpoint): MessageInitShape<typeof AuditCheckpointSchema> {
  return {
    tenantId: checkpoint.tenantId,
    sequence: BigInt(checkpoint.sequence),
    hash: checkpoint.hash,
    signedAt: ts(checkpoint.signedAt),
    keyId: checkpoint.keyId,
    signature: checkpoint.signature,
    payload: checkpointPayload(checkpoint.tenantId, checkpoint.sequence, checkpoint.hash, checkpoint.signedAt),
  };
}

export function toVerificationMessage(report: AuditTrailVerification): MessageInitShape<typeof VerifyAuditTrailResponseSchema> {
  return {
    intact: report.intact,
    firstSequence: BigInt(report.firstSequence),
    lastSequence: BigInt(report.lastSequence),
    entriesChecked: BigInt(report.entriesChecked),
    checkpointsChecked: BigInt(report.checkpointsChecked),
    lastVerifiedCheckpoint: report.lastVerifiedCheckpoint && toCheckpointMessage(report.lastVerifiedCheckpoint),
    problem: report.problem && {
      kind: enumValue(AuditChainProblemKind, report.problem.kind),
      sequence: BigInt(report.problem.sequence),
      entryId: report.problem.entryId ?? "",
      message: report.problem.message,
    },
    anchoredThrough: BigInt(report.anchoredThrough),
  };
}
