import type { LifecycleState } from "../../../domain/files/lifecycle-state.js";
import type { ObjectRecord, StoredObjectView } from "../../../domain/files/stored-object.js";
import type { ObjectRef } from "../../../domain/files/object-ref.js";
import type { LifecyclePorts } from "./deps.js";

/** What every lifecycle step answers: the persisted state after the step, read after its write. */
export interface StepOutcome {
  state: LifecycleState;
  /** The object as the API shows it; absent once it is gone. */
  object?: StoredObjectView;
}

export function stateOf(record: ObjectRecord | undefined): LifecycleState {
  if (!record) return { exists: false, deleted: false, held: false };
  return {
    exists: true,
    deleted: record.deleted,
    held: !!record.legalHold,
    status: record.status,
    objectClass: record.objectClass,
    ownerEntityType: record.ownerEntityType,
    retentionPolicy: record.retentionPolicy,
    retentionExpiresAt: record.retentionExpiresAt,
    ...(record.deleteReason ? { deleteReason: record.deleteReason } : {}),
  };
}

export function outcomeOf(record: ObjectRecord | undefined): StepOutcome {
  if (!record || record.deleted) return { state: stateOf(record) };
  const { deleted: _deleted, storageDeletePending: _pending, ...object } = record;
  return { state: stateOf(record), object };
}

export async function loadLifecycleState(ports: Pick<LifecyclePorts, "objects">, ref: ObjectRef): Promise<StepOutcome> {
  return outcomeOf(await ports.objects.findRecord(ref.tenantId, ref.objectId));
}
