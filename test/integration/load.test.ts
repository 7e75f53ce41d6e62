import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { MIXED_UPLOADS } from "../support/mixed-uploads.js";
import { tokenFor, uniqueTenant } from "../support/clients.js";
import { bucketKeys, sleep, sql, withTemporal } from "../support/stack-access.js";
import { complete, initiate, put } from "../support/uploads.js";

const UPLOADS = Number(process.env.LOAD_UPLOADS ?? 200);
const CONCURRENCY = 16;

const kinds = MIXED_UPLOADS;

async function pool<T>(count: number, limit: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}


describe("load", () => {
  it(`${UPLOADS} concurrent uploads of mixed classes end as their bytes deserve, and rows, bucket objects and workflows agree`, { timeout: 600_000 }, async () => {
    const tenant = uniqueTenant("load");
    const token = await tokenFor(tenant);
    const workerLog = path.join(inject("logDir"), "worker.log");
    const logFrom = statSync(workerLog).size;
    const objects = await pool(UPLOADS, CONCURRENCY, async (i) => {
      const kind = kinds[i % kinds.length];
      const bytes = kind.bytes();
      const started = await initiate(token, { objectClass: kind.objectClass, contentType: kind.contentType, bytes, ownerEntityId: `o${i}` });
      expect(started.status).toBe(200);
      expect((await put(started.body, bytes)).status).toBe(200);
      expect((await complete(token, started.body.storedObject.id, {})).status).toBe(200);
      return { object: started.body.storedObject as { id: string }, expected: kind.ends };
    });

    // Final states from the database: a rejected file may already have expired (its row stays).
    const deadline = Date.now() + 120_000;
    let statuses = new Map<string, string>();
    while (Date.now() < deadline) {
      const rows = await sql<{ id: string; status: string }>("select id, status from stored_objects where tenant_id = ?", [tenant]);
      statuses = new Map(rows.map((r) => [r.id, r.status]));
      if ([...statuses.values()].every((s) => s === "READY" || s === "REJECTED")) break;
      await sleep(500);
    }
    expect([...statuses.values()].filter((s) => s === "SCANNING" || s === "PENDING_UPLOAD")).toEqual([]);
    for (const { object, expected } of objects) expect(statuses.get(object.id), object.id).toBe(expected);
    // The worker (sdk-core included) logged no error under this load.
    // JSON lines of our logger at error or fatal, and sdk-core's own text lines at ERROR.
    const errors = readFileSync(workerLog)
      .subarray(logFrom)
      .toString("utf8")
      .split("\n")
      .map((line) => line.replace(/\u001b\[[0-9;]*m/g, ""))
      .filter((line) => /"level":(50|60)/.test(line) || /^\S+\s+ERROR\b/.test(line));
    expect(errors).toEqual([]);

    // Rejected files expire after RETENTION_FAILED_UPLOAD_SECONDS (seconds in tests); wait for that.
    await sleep(8000);
    const live = await sql<{ id: string; storage_key: string }>("select id, storage_key from stored_objects where tenant_id = ? and deleted_at is null", [tenant]);
    const ready = objects.filter((o) => o.expected === "READY");
    expect(live.map((r) => r.id).sort()).toEqual(ready.map((o) => o.object.id).sort());
    expect(await bucketKeys(`tenants/${tenant}/`)).toEqual(new Set(live.map((r) => r.storage_key)));

    const workflows = await withTemporal(async (client) => {
      let count = 0;
      for await (const _ of client.workflow.list({ query: `TenantId = "${tenant}"` })) count++;
      return count;
    });
    expect(workflows).toBe(UPLOADS);

    const trails = await sql<{ object_id: string; actions: string }>(
      "select object_id, string_agg(action, ',' order by occurred_at, id) as actions from audit_entries where tenant_id = ? group by object_id",
      [tenant],
    );
    const byId = new Map(trails.map((t) => [t.object_id, t.actions]));
    for (const { object, expected } of objects) {
      const trail = expected === "READY" ? "UPLOAD_INITIATED,UPLOAD_COMPLETED,SCAN_PASSED" : "UPLOAD_INITIATED,UPLOAD_COMPLETED,SCAN_FAILED,OBJECT_EXPIRED";
      expect(byId.get(object.id), object.id).toBe(trail);
    }
  });
});
