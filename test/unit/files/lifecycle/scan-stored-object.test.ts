import { beforeEach, describe, expect, it } from "vitest";
import { scanStoredObject } from "../../../../src/app/files/lifecycle/scan-stored-object.js";
import { nestedSvg, worstCaseSvg } from "../../../fixtures/files/index.js";
import { FakeObjects, FakeStorage, lifecyclePorts, pendingRecord } from "./fakes.js";

let objects: FakeObjects;
let storage: FakeStorage;

/** An SVG logo waiting for the scan activity; FakeStorage streams it as one chunk, as a small object arrives. */
function scanning(bytes: Uint8Array) {
  const record = pendingRecord({ status: "SCANNING", contentType: "image/svg+xml", objectClass: "COMPANY_LOGO", fileSize: bytes.length });
  objects.put(record);
  storage.objects.set(record.storageKey, bytes);
  return { tenantId: record.tenantId, objectId: record.id };
}

/**
 * CPU time of the thread running the event loop. Not process.cpuUsage(): that also counts V8's
 * background GC and compiler threads, which keep running while a loaded machine deschedules the
 * main thread, and made a short hold look long.
 */
function cpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/**
 * The most CPU time the event loop's thread spent between two runs of a 1 ms timer while `run`
 * ran: the longest the event loop was held, measured by the thread's own counter, so other
 * processes and threads competing for the machine do not lengthen it.
 */
async function longestHold<T>(run: () => Promise<T>): Promise<{ result: T; holdMs: number }> {
  let last = cpuMs();
  let holdMs = 0;
  const tick = setInterval(() => {
    const now = cpuMs();
    holdMs = Math.max(holdMs, now - last);
    last = now;
  }, 1);
  try {
    const result = await run();
    holdMs = Math.max(holdMs, cpuMs() - last);
    return { result, holdMs };
  } finally {
    clearInterval(tick);
  }
}

beforeEach(() => {
  objects = new FakeObjects();
  storage = new FakeStorage();
});

describe("scanStoredObject keeps the worker responsive", () => {
  it("lets the event loop run throughout the worst-case SVG allowed, and heartbeats as it goes", async () => {
    const ref = scanning(worstCaseSvg());
    const heartbeats: number[] = [];
    const { result, holdMs } = await longestHold(() => scanStoredObject(lifecyclePorts(objects, storage), ref, { heartbeat: (bytes) => heartbeats.push(bytes) }));
    expect(result).toMatchObject({ passed: true });
    // The whole scan costs about half a second of CPU; one slice of it a few milliseconds.
    expect(holdMs).toBeLessThan(100);
    expect(heartbeats.length).toBeGreaterThan(50);
  });

  it("refuses the pathological nested SVG with the depth reason", async () => {
    const ref = scanning(nestedSvg(100_000));
    const result = await scanStoredObject(lifecyclePorts(objects, storage), ref, { heartbeat: () => undefined });
    expect(result?.checks.find((check) => !check.passed)).toMatchObject({ name: "svg_safety", reason: "SVG_TOO_DEEP" });
  });

  it("stops a superseded attempt at its next checkpoint, with the abort reason", async () => {
    const ref = scanning(worstCaseSvg());
    const attempt = new AbortController();
    const superseded = new Error("heartbeat timed out");
    let heartbeats = 0;
    const scan = scanStoredObject(lifecyclePorts(objects, storage), ref, {
      heartbeat: () => {
        if (++heartbeats === 3) attempt.abort(superseded);
      },
      signal: attempt.signal,
    });
    await expect(scan).rejects.toBe(superseded);
    expect(heartbeats).toBe(3);
  });
});
