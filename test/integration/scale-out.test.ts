/**
 * Scale-out: two API servers and two workers of this test's own, against the suite's one Temporal
 * server, PostgreSQL and MinIO. Both workers poll one dedicated task queue (the suite's worker does
 * not), so when one is SIGKILLed its workflows (sticky on it) and activities move to the other.
 * Uploads alternate between the two APIs; one API is SIGKILLed mid-load too, and a call that fails
 * on it is retried on the other, as a client behind a load balancer would: complete is one Update
 * of the object's workflow, so whichever API sends it the persisted state decides the answer.
 * Both killed processes are started again. Every upload a client saw ends as its bytes deserve,
 * nothing happens twice, and rows, bucket objects and workflows agree one to one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIXED_UPLOADS } from "../support/mixed-uploads.js";
import { tokenFor, uniqueTenant } from "../support/clients.js";
import { FilesApi, type ApiResponse } from "../support/lifecycle-paths.js";
import { startProcessPair, type ProcessPair } from "../support/process-pair.js";
import { sleep, sql } from "../support/stack-access.js";
import { expectExactTrails, expectRowsBucketWorkflows } from "../support/upload-invariants.js";

const UPLOADS = Number(process.env.SCALE_UPLOADS ?? 150);
const CONCURRENCY = 16;

let pairs: ProcessPair[] = [];

beforeAll(async () => {
  const env = {
    // One queue for both workers of this test, none other polls it.
    TEMPORAL_TASK_QUEUE: `scale-out-${process.pid}`,
    // Long enough that nothing expires during the test: rejected files and unseen initiates stay.
    RETENTION_TEMP_UPLOAD_SECONDS: "3600",
    RETENTION_FAILED_UPLOAD_SECONDS: "3600",
    STORAGE_PRESIGN_UPLOAD_EXPIRY_SECONDS: "600",
  };
  // One after the other: two bundles at once on a small machine only slow both.
  pairs = [await startProcessPair("scale-a", env), await startProcessPair("scale-b", env)];
}, 360_000);

afterAll(async () => {
  await Promise.all(pairs.map((p) => p.supervisor.stopAll()));
});

async function pool(count: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < count) await work(next++);
  }));
}

describe("scale-out", () => {
  it(`${UPLOADS} uploads over two APIs and two workers, one of each SIGKILLed and restarted: every upload ends right, once`, { timeout: 900_000 }, async () => {
    const tenant = uniqueTenant("scale");
    const token = await tokenFor(tenant);
    const apis = pairs.map((p) => new FilesApi(p.baseUrl, token, tenant));
    const failedOn = [0, 0];
    let retriedElsewhere = 0;

    /** The upload's own API first; a network error or 5xx is retried on the other one. */
    async function call(i: number, what: string, work: (api: FilesApi) => Promise<ApiResponse>): Promise<any> {
      const deadline = Date.now() + 240_000;
      let last = "";
      for (let attempt = 0; Date.now() < deadline; attempt++) {
        const which = (i + attempt) % 2;
        try {
          const res = await work(apis[which]);
          if (res.status === 200) {
            if (attempt > 0) retriedElsewhere++;
            return res.body;
          }
          last = `${res.status} ${JSON.stringify(res.body)}`;
          if (res.status < 500) throw new Error(`${what}: ${last}`);
        } catch (error) {
          if ((error as Error).message.startsWith(`${what}:`)) throw error;
          last = String(error);
        }
        failedOn[which]++;
        await sleep(200);
      }
      throw new Error(`${what} never succeeded: ${last}`);
    }

    const expected = new Map<string, string>();
    // The bucket key each created object was given, from the client's own answers.
    const storageKeys = new Map<string, string>();
    let done = 0;
    let loadOver = false;
    let initiateAttempts = 0;
    const uploads = pool(UPLOADS, CONCURRENCY, async (i) => {
      const kind = MIXED_UPLOADS[i % MIXED_UPLOADS.length];
      const bytes = kind.bytes();
      const started = await call(i, "initiate", (api) => {
        initiateAttempts++;
        return api.call("POST", "/uploads/initiate", { objectClass: kind.objectClass, ownerEntityType: "User", ownerEntityId: `o${i}`, originalFilename: "f", contentType: kind.contentType, fileSize: bytes.length });
      });
      const id = started.storedObject.id as string;
      expected.set(id, kind.ends);
      storageKeys.set(id, started.storedObject.storageKey as string);
      await apis[0].put(started, bytes);
      // The answer may still say SCANNING (the wait is bounded); the end is checked below.
      await call(i, "complete", (api) => api.complete(id, { waitForResult: true }));
      done++;
    }).finally(() => {
      loadOver = true;
    });

    // A worker at a fifth of the load, an API at two fifths; each started again after a breath.
    const killAndRestart = async (at: number, pair: ProcessPair, name: "api" | "worker") => {
      while (done < UPLOADS * at && !loadOver) await sleep(100);
      if (loadOver) return false;
      await pair.supervisor.kill(name, "SIGKILL");
      await sleep(1500);
      await (name === "api" ? pair.supervisor.startApi() : pair.supervisor.startWorker());
      return true;
    };
    const faults = Promise.all([killAndRestart(0.2, pairs[0], "worker"), killAndRestart(0.4, pairs[1], "api")]);

    await uploads;
    expect(await faults).toEqual([true, true]);
    expect(expected.size).toBe(UPLOADS);
    // Calls to the killed API failed, and were answered by the other one.
    expect(failedOn[1]).toBeGreaterThan(0);
    expect(retriedElsewhere).toBeGreaterThan(0);

    const settled = (r: { id: string; status: string }) => !expected.has(r.id) || r.status === "READY" || r.status === "REJECTED";
    const deadline = Date.now() + 180_000;
    let all: { id: string; status: string; storage_key: string; deleted: boolean }[] = [];
    do {
      if (all.length > 0) await sleep(1000);
      all = await sql("select id, status, storage_key, deleted_at is not null as deleted from stored_objects where tenant_id = ?", [tenant]);
    } while (!all.every(settled) && Date.now() < deadline);
    const seen = all.filter((r) => expected.has(r.id));
    expect(seen.map((r) => r.id).sort()).toEqual([...expected.keys()].sort());
    const wrong = seen.filter((r) => r.deleted || r.status !== expected.get(r.id)).map((r) => `${r.id}: ${r.status}, expected ${expected.get(r.id)}`);
    expect(wrong).toEqual([]);
    // An initiate whose answer died with the API left an upload no client saw: never completed,
    // it waits for its abandonment deadline (or was withdrawn), and holds no bucket object.
    const unseen = all.filter((r) => !expected.has(r.id) && !r.deleted);
    expect(unseen.filter((r) => r.status !== "PENDING_UPLOAD")).toEqual([]);

    // Nothing twice: one completion and one scan result per object; rows = bucket objects = workflows.
    const trails = await expectExactTrails(tenant, expected);
    await expectRowsBucketWorkflows(tenant, expected, [...storageKeys.values()], trails, initiateAttempts - UPLOADS);
  });
});
