/**
 * The retention sweep against rows it cannot finish, and a restore racing an expiry, on the real
 * PostgreSQL, MinIO and Temporal. A bucket object under an S3 legal hold placed straight at the
 * bucket (no row knows of it) refuses every delete: a storage delete that fails permanently.
 */
import { randomUUID } from "node:crypto";
import { PutObjectLegalHoldCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { LifecycleObjectStore } from "../../src/adapters/postgres/lifecycle-object-store.js";
import { ObjectCatalogStore } from "../../src/adapters/postgres/object-catalog-store.js";
import { isExpired } from "../../src/domain/files/retention.js";
import { isRestorable } from "../../src/domain/files/supersession.js";
import { png } from "../fixtures/files/index.js";
import { tokenFor, uniqueTenant } from "../support/clients.js";
import { bucketHas, putDirect, s3, sql, withDb, withTemporal } from "../support/stack-access.js";
import { initiate } from "../support/uploads.js";

async function holdInBucket(key: string, on: boolean): Promise<void> {
  const { client, bucket } = s3();
  try {
    await client.send(new PutObjectLegalHoldCommand({ Bucket: bucket, Key: key, LegalHold: { Status: on ? "ON" : "OFF" } }));
  } finally {
    client.destroy();
  }
}

interface RowSpec {
  tenant: string;
  deletedMinutesAgo?: number;
  expiredMinutesAgo?: number;
  held?: boolean;
}

/** A row whose workflow is gone, with its bucket object: overdue, or deleted with the delete owed. */
async function staleRow(spec: RowSpec): Promise<{ id: string; key: string }> {
  const id = randomUUID();
  const key = `tenants/${spec.tenant}/User/sweep/${id}`;
  await putDirect(key, new Uint8Array([1, 2, 3]));
  if (spec.held) await holdInBucket(key, true);
  const deleted = spec.deletedMinutesAgo !== undefined;
  await sql(
    `insert into stored_objects (id, tenant_id, storage_key, status, object_class, owner_entity_type, owner_entity_id, original_filename,
       content_type, file_size, retention_policy, retention_expires_at, workflow_id, deleted_at, delete_reason, storage_delete_pending,
       created_at, updated_at)
     values (?, ?, ?, 'READY', 'IMPORT_FILE', 'User', 'sweep', 'a.csv', 'text/csv', 3, 'IMPORT_ARTIFACT_90D',
       now() - make_interval(mins => ?), ?, ${deleted ? "now() - make_interval(mins => ?)" : "?"}, ?, ?, now() - interval '1 day', now())`,
    [id, spec.tenant, key, spec.expiredMinutesAgo ?? spec.deletedMinutesAgo ?? 0, `object-${spec.tenant}-${id}`, deleted ? spec.deletedMinutesAgo : null, deleted ? "USER_DELETED" : null, deleted],
  );
  return { id, key };
}

async function runSweep(batchSize: number) {
  return withTemporal((client, taskQueue) =>
    client.workflow.execute("retentionSweep", {
      taskQueue,
      workflowId: `sweep-failures-${randomUUID()}`,
      args: [{ batchSize, maxBatches: 50, orphanMinAgeSeconds: 3600 }],
    }),
  ) as Promise<{ expired: number; storageDeletesFinished: number; storageDeleteFailures: number }>;
}

const stateOf = async (id: string) =>
  (await sql<{ deleted_at: Date | null; storage_delete_pending: boolean; storage_delete_failed_runs: number }>(
    "select deleted_at, storage_delete_pending, storage_delete_failed_runs from stored_objects where id = ?",
    [id],
  ))[0];

const failureAudits = async (id: string) =>
  sql<{ details: { reason: string } }>("select details from audit_entries where object_id = ? and result = 'FAILURE'", [id]);

describe("the sweep with a storage delete that fails permanently", () => {
  it("expires and deletes every other row in the same run, past more rows than one batch, and counts the failure once per run", { timeout: 120_000 }, async () => {
    const tenant = uniqueTenant();
    const token = await tokenFor(tenant);
    // Overdue first in the sweep's order, but their own workflows still run: left alone, and
    // more of them than one batch (2) holds.
    const running: string[] = [];
    for (let i = 0; i < 3; i++) running.push((await initiate(token, { objectClass: "USER_PROFILE_PHOTO", contentType: "image/png", bytes: png(2, 2), ownerEntityId: `run${i}` })).body.storedObject.id);
    for (const id of running) await sql("update stored_objects set retention_expires_at = now() - interval '3 hours' where id = ?", [id]);
    // Overdue rows whose workflow is gone; the first one's bucket object cannot be deleted.
    const overdue = [await staleRow({ tenant, expiredMinutesAgo: 120, held: true }), await staleRow({ tenant, expiredMinutesAgo: 119 }), await staleRow({ tenant, expiredMinutesAgo: 118 })];
    // Deleted rows still owing their storage delete: two that fail (a whole batch), then one that works.
    const owed = [await staleRow({ tenant, deletedMinutesAgo: 300, held: true }), await staleRow({ tenant, deletedMinutesAgo: 299, held: true }), await staleRow({ tenant, deletedMinutesAgo: 298 })];
    const held = [overdue[0], owed[0], owed[1]];
    try {
      const first = await runSweep(2);
      expect(first.expired).toBeGreaterThanOrEqual(3);
      expect(first.storageDeleteFailures).toBeGreaterThanOrEqual(3);
      for (const id of running) expect((await stateOf(id)).deleted_at).toBeNull();
      for (const row of [overdue[1], overdue[2], owed[2]]) {
        expect(await stateOf(row.id)).toMatchObject({ storage_delete_pending: false });
        expect(await bucketHas(row.key)).toBe(false);
      }
      expect((await stateOf(overdue[0].id)).deleted_at).not.toBeNull();
      for (const row of held) {
        expect(await stateOf(row.id)).toMatchObject({ storage_delete_pending: true, storage_delete_failed_runs: 1 });
        expect(await bucketHas(row.key)).toBe(true);
      }

      await runSweep(2);
      for (const row of held) {
        expect((await stateOf(row.id)).storage_delete_failed_runs).toBe(2);
        // Audited at the first failure only, not once a run.
        expect((await failureAudits(row.id)).map((a) => a.details.reason)).toEqual(["STORAGE_DELETE_FAILED"]);
      }
    } finally {
      for (const row of held) await holdInBucket(row.key, false);
    }
  });
});

describe("a restore racing an expiry", () => {
  it("exactly one of restore and expiry wins each race, the row shows the winner's result, no deleted row stays current, and the owner keeps exactly one current photo", { timeout: 120_000 }, async () => {
    const tenant = uniqueTenant();
    const outcomes: { owner: string; current: string; superseded: string; winner: "restore" | "expire" }[] = [];
    await withDb(async (orm) => {
      const [catalog, lifecycle] = [new ObjectCatalogStore(orm), new LifecycleObjectStore(orm)];
      const actor = { tenantId: tenant, actorId: "system" };
      for (let i = 0; i < 30; i++) {
        const [current, superseded] = [randomUUID(), randomUUID()];
        const owner = `race-${i}`;
        for (const [id, isCurrent, policy, deadline] of [
          [current, true, "PERMANENT", null],
          [superseded, false, "SUPERSEDED_30D", new Date(Date.now() - 60_000)],
        ] as const) {
          await orm.em.fork().execute(
            `insert into stored_objects (id, tenant_id, storage_key, status, object_class, owner_entity_type, owner_entity_id, original_filename,
               content_type, file_size, is_current, retention_policy, retention_expires_at, workflow_id, created_at, updated_at, ready_at)
             values (?, ?, ?, 'READY', 'USER_PROFILE_PHOTO', 'User', ?, 'me.png', 'image/png', 3, ?, ?, ?, ?, now(), now(), now())`,
            [id, tenant, `tenants/${tenant}/User/${owner}/${id}`, owner, isCurrent, policy, deadline, `object-${tenant}-${id}`],
          );
        }
        const now = new Date();
        const settlement = { retentionPolicy: "PERMANENT", retentionExpiresAt: null, supersededExpiresAt: new Date(now.getTime() + 60_000) };
        // Either may reach the row lock first; which one goes first alternates so that both win some races.
        const restoring = () => catalog.restore(actor, superseded, settlement, now, (c) => isRestorable(c, true));
        const expiring = () => lifecycle.expire(actor, superseded, now, (c) => isExpired(c, now));
        const [restored, expired] = i % 2 === 0 ? await Promise.all([restoring(), expiring()]) : await Promise.all([expiring(), restoring()]).then(([e, r]) => [r, e] as const);
        expect([restored !== undefined, expired], `race ${i}: exactly one of restore and expire won`).toSatisfy(([r, e]: boolean[]) => r !== e);
        outcomes.push({ owner, current, superseded, winner: restored !== undefined ? "restore" : "expire" });
      }
    });
    for (const { owner, current, superseded, winner } of outcomes) {
      const rows = await sql<{ id: string; is_current: boolean; deleted: boolean; retention_policy: string }>(
        "select id, is_current, deleted_at is not null as deleted, retention_policy from stored_objects where tenant_id = ? and id in (?, ?)",
        [tenant, current, superseded],
      );
      const state = Object.fromEntries(rows.map((r) => [r.id, { isCurrent: r.is_current, deleted: r.deleted, policy: r.retention_policy }]));
      if (winner === "restore") {
        expect(state[superseded], `${owner}: restore won`).toEqual({ isCurrent: true, deleted: false, policy: "PERMANENT" });
        expect(state[current], `${owner}: restore won`).toMatchObject({ isCurrent: false, deleted: false, policy: "SUPERSEDED_30D" });
      } else {
        expect(state[superseded], `${owner}: expire won`).toEqual({ isCurrent: false, deleted: true, policy: "SUPERSEDED_30D" });
        expect(state[current], `${owner}: expire won`).toEqual({ isCurrent: true, deleted: false, policy: "PERMANENT" });
      }
    }
    const wins = { restore: outcomes.filter((o) => o.winner === "restore").length, expire: outcomes.filter((o) => o.winner === "expire").length };
    console.log(`restore racing expiry: restore won ${wins.restore}, expire won ${wins.expire} of ${outcomes.length}`);
    expect(wins.restore, "races restore won (its branch was checked)").toBeGreaterThan(0);
    expect(wins.expire, "races expire won (its branch was checked)").toBeGreaterThan(0);
    const deletedCurrent = await sql("select id from stored_objects where tenant_id = ? and deleted_at is not null and is_current", [tenant]);
    expect(deletedCurrent).toEqual([]);
    const perOwner = await sql<{ owner_entity_id: string; current: number }>(
      "select owner_entity_id, count(*) filter (where is_current and deleted_at is null)::int as current from stored_objects where tenant_id = ? group by 1",
      [tenant],
    );
    expect(perOwner).toHaveLength(30);
    expect(perOwner.filter((o) => o.current !== 1)).toEqual([]);
  });
});
