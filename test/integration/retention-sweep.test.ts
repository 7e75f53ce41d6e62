/**
 * The retention sweep, and timers and scans across worker restarts. Alone on the stack
 * (vitest.config.ts): the sweep acts on every tenant's rows and bucket objects, and the restarts
 * kill the worker every other file's uploads run on.
 */
import { describe, expect, it } from "vitest";
import { lifecycleWorkflowId } from "../../src/domain/files/stored-object.js";
import { csv } from "../fixtures/files/index.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { control } from "../support/control.js";
import { bucketHas, bucketObjectRemoved, putDirect, sleep, sql, withTemporal } from "../support/stack-access.js";
import { auditActions, complete, importFile, initiate, put, uploadThrough, waitForGone, waitForStatus } from "../support/uploads.js";

describe("the sweep", () => {
  async function runSweep() {
    return withTemporal((client, taskQueue) =>
      client.workflow.execute("retentionSweep", {
        taskQueue,
        workflowId: `sweep-test-${Date.now()}`,
        args: [{ batchSize: 100, maxBatches: 10, orphanMinAgeSeconds: 3 }],
      }),
    ) as Promise<{ expired: number; orphansRemoved: number; storageDeletesFinished: number; scansRedriven: number; batches: number }>;
  }

  it("re-drives an object stuck SCANNING past its scan deadline: its workflow scans it and it ends READY", async () => {
    const tenant = uniqueTenant();
    const token = await tokenFor(tenant);
    const file = importFile();
    const started = await initiate(token, file);
    await put(started.body, file.bytes);
    const id = started.body.storedObject.id;
    // Lost in the worst way: the workflow is gone and the row says complete happened hours ago.
    await withTemporal((client) => client.workflow.getHandle(lifecycleWorkflowId(tenant, id)).terminate("test: lost"));
    await sql("update stored_objects set status = 'SCANNING', uploaded_at = now() - interval '2 hours' where tenant_id = ? and id = ?", [tenant, id]);
    const result = await runSweep();
    expect(result.scansRedriven).toBeGreaterThanOrEqual(1);
    const object = await waitForStatus(token, id, ["READY"], 30_000);
    expect(object.scanResult.passed).toBe(true);
    expect(await auditActions(id)).toEqual(["UPLOAD_INITIATED", "SCAN_PASSED"]);
  });

  it("removes a bucket object that no row owns, once older than the upload URL lifetime", async () => {
    const key = `tenants/${uniqueTenant()}/User/ghost/00000000-0000-7000-8000-${Date.now().toString().padStart(12, "0").slice(-12)}`;
    await putDirect(key, new Uint8Array([1, 2, 3]));
    await sleep(3500);
    const result = await runSweep();
    expect(result.orphansRemoved).toBeGreaterThanOrEqual(1);
    expect(await bucketHas(key)).toBe(false);
  });

  it("expires a row whose deadline passed and whose workflow was terminated", async () => {
    const tenant = uniqueTenant();
    const token = await tokenFor(tenant);
    const object = await uploadThrough(token, importFile());
    await withTemporal((client) => client.workflow.getHandle(lifecycleWorkflowId(tenant, object.id)).terminate("test"));
    await sleep(new Date(object.retentionExpiresAt).getTime() - Date.now() + 500);
    expect((await rest("GET", `/api/v1/uploads/${object.id}`, { token })).status).toBe(200);
    const result = await runSweep();
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect((await rest("GET", `/api/v1/uploads/${object.id}`, { token })).status).toBe(404);
    expect(await bucketObjectRemoved(object.storageKey)).toBe(true);
    const expired = (await rest("GET", `/api/v1/uploads/${object.id}/audit`, { token })).body.auditEntries.at(-1);
    expect(expired.action).toBe("OBJECT_EXPIRED");
    // The sweep's run, not the (terminated) object workflow.
    expect(expired.correlationId).toMatch(/^workflow:/);
    expect(expired.correlationId).not.toContain(lifecycleWorkflowId(tenant, object.id));
  });
});

describe("workers come and go", () => {
  it("a worker restarted while timers are pending loses no expiry", { timeout: 150_000 }, async () => {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, importFile());
    await control("worker", "kill");
    try {
      await sleep(new Date(object.retentionExpiresAt).getTime() - Date.now() + 1000);
      expect((await rest("GET", `/api/v1/uploads/${object.id}`, { token })).status).toBe(200);
    } finally {
      await control("worker", "start");
    }
    // The timer fired while no worker ran; its task waits for the sticky-queue timeout, then the
    // new worker replays the history and expires the object.
    await waitForGone(token, object.id, 90_000);
    expect((await auditActions(object.id)).filter((a) => a === "OBJECT_EXPIRED")).toHaveLength(1);
  });

  it("a worker killed during a scan is replaced and the object ends READY, scanned once in effect", async () => {
    const token = await tokenFor(uniqueTenant());
    const rows = Array.from({ length: 600_000 }, (_, i) => [String(i), "some text value", String(i * 7)]);
    const bytes = csv([["id", "name", "score"], ...rows]);
    const started = await initiate(token, { objectClass: "IMPORT_FILE", contentType: "text/csv", bytes });
    expect((await put(started.body, bytes)).status).toBe(200);
    const id = started.body.storedObject.id;
    const completed = await complete(token, id, {});
    expect(completed.body.storedObject.status).toBe("SCANNING");
    await control("worker", "kill");
    await control("worker", "start");
    const object = await waitForStatus(token, id, ["READY", "REJECTED"], 60_000);
    expect(object.status).toBe("READY");
    expect((await auditActions(id)).filter((a) => a === "SCAN_PASSED")).toHaveLength(1);
  });
});
