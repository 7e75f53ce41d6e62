/**
 * Chaos: 500 mixed uploads through an API server and worker of this test's own (their own task
 * queue, long abandoned-upload deadline) while the worker is killed (SIGKILL) at random moments
 * and started again, and the Temporal server is restarted once. Clients retry what failed, as
 * real clients do. Every completed upload must end READY or REJECTED as its bytes deserve, none
 * expires, each audit trail is exact, and rows, bucket objects and workflows agree one to one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIXED_UPLOADS } from "../support/mixed-uploads.js";
import { tokenFor, uniqueTenant } from "../support/clients.js";
import { control } from "../support/control.js";
import { FilesApi } from "../support/lifecycle-paths.js";
import { startProcessPair } from "../support/process-pair.js";
import type { ProcessSupervisor } from "../support/process-supervisor.js";
import { sleep, sql } from "../support/stack-access.js";
import { expectExactTrails, expectRowsBucketWorkflows } from "../support/upload-invariants.js";

const UPLOADS = Number(process.env.CHAOS_UPLOADS ?? 500);
const CONCURRENCY = 16;

const kinds = MIXED_UPLOADS;

let supervisor: ProcessSupervisor;
let baseUrl: string;

beforeAll(async () => {
  const pair = await startProcessPair("chaos", {
    // Long enough that no upload can be abandoned by the chaos itself; rejected files stay.
    RETENTION_TEMP_UPLOAD_SECONDS: "3600",
    RETENTION_FAILED_UPLOAD_SECONDS: "3600",
    STORAGE_PRESIGN_UPLOAD_EXPIRY_SECONDS: "600",
  });
  supervisor = pair.supervisor;
  baseUrl = pair.baseUrl;
}, 180_000);

afterAll(async () => {
  await supervisor?.stopAll();
});

/** Retries what a real client retries: network errors and 5xx (unavailable, deadline). */
async function retrying<T>(what: string, work: () => Promise<{ status: number; body: any }>, accept = (s: number) => s === 200): Promise<any> {
  const deadline = Date.now() + 240_000;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const res = await work();
      if (accept(res.status)) return res.body;
      last = `${res.status} ${JSON.stringify(res.body)}`;
      if (res.status < 500) throw new Error(`${what}: ${last}`);
    } catch (error) {
      if ((error as Error).message.startsWith(`${what}:`)) throw error;
      last = String(error);
    }
    await sleep(300);
  }
  throw new Error(`${what} never succeeded: ${last}`);
}

async function pool(count: number, limit: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < count) await work(next++);
  }));
}


describe("chaos", () => {
  it(`${UPLOADS} uploads while the worker is killed at random and Temporal restarts once: every upload ends right`, { timeout: 900_000 }, async () => {
    const tenant = uniqueTenant("chaos");
    const api = new FilesApi(baseUrl, await tokenFor(tenant), tenant);
    const expected = new Map<string, string>();
    // The bucket key each created object was given, from the client's own answers.
    const storageKeys = new Map<string, string>();
    let done = 0;
    let chaosOver = false;
    let initiateAttempts = 0;

    const uploads = pool(UPLOADS, CONCURRENCY, async (i) => {
      const kind = kinds[i % kinds.length];
      const bytes = kind.bytes();
      const started = await retrying("initiate", () => {
        initiateAttempts++;
        return api.call("POST", "/uploads/initiate", { objectClass: kind.objectClass, ownerEntityType: "User", ownerEntityId: `o${i}`, originalFilename: "f", contentType: kind.contentType, fileSize: bytes.length });
      });
      const id = started.storedObject.id as string;
      expected.set(id, kind.ends);
      storageKeys.set(id, started.storedObject.storageKey as string);
      await api.put(started, bytes);
      await retrying("complete", () => api.complete(id, { waitForResult: true }));
      done++;
    });

    const chaos = (async () => {
      let kills = 0;
      let temporalRestarted = false;
      while (!chaosOver) {
        await sleep(1500 + Math.random() * 4000);
        if (chaosOver) break;
        if (!temporalRestarted && done > UPLOADS / 2) {
          temporalRestarted = true;
          await control("temporal", "stop");
          await sleep(1000);
          await control("temporal", "start");
          continue;
        }
        await supervisor.kill("worker", "SIGKILL");
        kills++;
        await sleep(Math.random() * 2000);
        await supervisor.startWorker();
      }
      return { kills, temporalRestarted };
    })();

    await uploads.finally(() => {
      chaosOver = true;
    });
    const { kills, temporalRestarted } = await chaos;
    expect(kills).toBeGreaterThan(2);
    expect(temporalRestarted).toBe(true);

    // Every object a client got settles as its bytes deserve.
    const deadline = Date.now() + 180_000;
    let live: { id: string; status: string; storage_key: string }[] = [];
    while (Date.now() < deadline) {
      live = await sql("select id, status, storage_key from stored_objects where tenant_id = ? and deleted_at is null", [tenant]);
      if (live.length >= UPLOADS && live.every((r) => r.status === "READY" || r.status === "REJECTED")) break;
      await sleep(1000);
    }
    expect(expected.size).toBe(UPLOADS);
    expect(live.map((r) => r.id).sort()).toEqual([...expected.keys()].sort());
    const wrong = live.filter((r) => r.status !== expected.get(r.id)).map((r) => `${r.id}: ${r.status}, expected ${expected.get(r.id)}`);
    expect(wrong).toEqual([]);

    // Exact audit trails: nothing twice, nothing expired; rows = bucket objects = workflows.
    const trails = await expectExactTrails(tenant, expected);
    await expectRowsBucketWorkflows(tenant, expected, [...storageKeys.values()], trails, initiateAttempts - UPLOADS);
  });
});
