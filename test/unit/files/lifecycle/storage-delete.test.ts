import { describe, expect, it } from "vitest";
import { finishStorageDelete } from "../../../../src/app/files/lifecycle/storage-delete.js";
import { FakeObjects, FakeStorage, lifecyclePorts, pendingRecord } from "./fakes.js";

/** A bucket whose deletes fail, as a storage outage or a bucket-side lock would make them. */
class FailingStorage extends FakeStorage {
  override async delete(): Promise<void> {
    throw new Error("storage unavailable");
  }
}

describe("finishStorageDelete", () => {
  const deletedRow = (reason: "USER_DELETED" | "EXPIRED") => pendingRecord({ deleted: true, deleteReason: reason, storageDeletePending: true });

  it("audits a failed storage delete as a FAILURE once per cause, however often it is retried, and throws", async () => {
    const objects = new FakeObjects();
    const row = deletedRow("EXPIRED");
    objects.put(row);
    const ports = lifecyclePorts(objects, new FailingStorage());
    const actor = { tenantId: row.tenantId, actorId: "system", correlationId: "workflow:object-t1-x/run-1" };
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(finishStorageDelete(ports, { tenantId: row.tenantId, objectId: row.id }, actor)).rejects.toThrow("storage unavailable");
    }
    expect(objects.auditLog).toEqual([
      expect.objectContaining({ action: "OBJECT_EXPIRED", result: "FAILURE", details: { reason: "STORAGE_DELETE_FAILED", message: "storage unavailable" } }),
    ]);
    expect(objects.rows.get(row.id)!.storageDeletePending).toBe(true);
  });

  it("names the user's delete when that is what the bytes outlived", async () => {
    const objects = new FakeObjects();
    const row = deletedRow("USER_DELETED");
    objects.put(row);
    const actor = { tenantId: row.tenantId, actorId: "alice", requestId: "req-9" };
    await expect(finishStorageDelete(lifecyclePorts(objects, new FailingStorage()), { tenantId: row.tenantId, objectId: row.id }, actor)).rejects.toThrow();
    expect(objects.auditLog.map((a) => [a.action, a.result, a.actor.requestId])).toEqual([["OBJECT_DELETED", "FAILURE", "req-9"]]);
  });

  it("writes nothing when the delete succeeds", async () => {
    const objects = new FakeObjects();
    const row = deletedRow("USER_DELETED");
    objects.put(row);
    await finishStorageDelete(lifecyclePorts(objects, new FakeStorage()), { tenantId: row.tenantId, objectId: row.id }, { tenantId: row.tenantId, actorId: "alice" });
    expect(objects.auditLog).toEqual([]);
    expect(objects.rows.get(row.id)!.storageDeletePending).toBe(false);
  });
});
