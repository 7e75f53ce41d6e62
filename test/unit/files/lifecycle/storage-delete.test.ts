import { describe, expect, it } from "vitest";
import { finishStorageDelete } from "../../../../src/app/files/lifecycle/storage-delete.js";
import { sweepStorageDelete } from "../../../../src/app/files/sweep/sweep-storage-delete.js";
import { storageDeleteNotice } from "../../../../src/domain/files/storage-delete-failures.js";
import { FakeObjects, FakeStorage, lifecyclePorts, NOW, pendingRecord } from "./fakes.js";

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

describe("the sweep's storage delete", () => {
  const ref = (row: { tenantId: string; id: string }) => ({ tenantId: row.tenantId, objectId: row.id });
  const sweepPorts = (objects: FakeObjects, storage: FakeStorage) => ({ objects, storage, now: () => NOW });
  const runActor = (run: number) => ({ tenantId: "t1", actorId: "system", correlationId: `workflow:retention-sweep/run-${run}` });

  it("does not throw: it counts the failure once per run, retries included, and gives up after the limit", async () => {
    const objects = new FakeObjects();
    const row = pendingRecord({ deleted: true, deleteReason: "EXPIRED", storageDeletePending: true });
    objects.put(row);
    const ports = sweepPorts(objects, new FailingStorage());
    const outcomes: string[] = [];
    for (let run = 1; run <= 4; run++) {
      // Each run's activity is retried once: the retry counts nothing more.
      for (let attempt = 0; attempt < 2; attempt++) outcomes.push((await sweepStorageDelete(ports, ref(row), runActor(run), 3)).outcome);
    }
    expect(outcomes).toEqual(["failed", "failed", "failed", "failed", "abandoned", "failed", "failed", "failed"]);
    expect(objects.deleteFailures.get(row.id)).toMatchObject({ runs: 3, abandoned: true });
    // Audited twice in all: the first failure and the give-up, not once a run.
    expect(objects.auditLog.map((a) => [a.action, a.result, a.details?.reason, a.details?.failedRuns])).toEqual([
      ["OBJECT_EXPIRED", "FAILURE", "STORAGE_DELETE_FAILED", 1],
      ["OBJECT_EXPIRED", "FAILURE", "STORAGE_DELETE_ABANDONED", 3],
    ]);
    expect(objects.rows.get(row.id)!.storageDeletePending).toBe(true);
  });

  it("finishes a delete that succeeds and says when none was owed", async () => {
    const objects = new FakeObjects();
    const owed = pendingRecord({ deleted: true, deleteReason: "USER_DELETED", storageDeletePending: true });
    const live = pendingRecord({ id: "0190c3a2-0000-7000-8000-000000000002" });
    objects.put(owed);
    objects.put(live);
    const ports = sweepPorts(objects, new FakeStorage());
    expect((await sweepStorageDelete(ports, ref(owed), runActor(1), 3)).outcome).toBe("deleted");
    expect((await sweepStorageDelete(ports, ref(owed), runActor(1), 3)).outcome).toBe("not-owed");
    expect((await sweepStorageDelete(ports, ref(live), runActor(1), 3)).outcome).toBe("not-owed");
    expect(objects.auditLog).toEqual([]);
  });

  it("tells the first failure and the give-up, nothing in between", () => {
    expect([1, 2, 3, 4].map((runs) => storageDeleteNotice(runs, 4))).toEqual(["FIRST_FAILURE", undefined, undefined, "ABANDONED"]);
    expect(storageDeleteNotice(1, 1)).toBe("ABANDONED");
    // A limit lowered below a row's count gives up at its next failure.
    expect(storageDeleteNotice(7, 3)).toBe("ABANDONED");
  });
});
