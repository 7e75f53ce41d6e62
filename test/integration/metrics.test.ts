import { describe, expect, inject, it } from "vitest";
import { exe, png } from "../fixtures/files/index.js";
import { apiUrl, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { sleep, sql } from "../support/stack-access.js";
import { uploadThrough } from "../support/uploads.js";

type Samples = Map<string, number>;

/** The API's operational listener (METRICS_PORT, loopback), apart from its public port. */
const metricsUrl = () => `http://127.0.0.1:${inject("stackEnv").METRICS_PORT}`;

/** The Prometheus text format, as `name{label="value",...}` to value. */
async function scrape(): Promise<{ samples: Samples; contentType: string | null }> {
  const res = await fetch(`${metricsUrl()}/metrics`);
  expect(res.status).toBe(200);
  const samples: Samples = new Map();
  for (const line of (await res.text()).split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return { samples, contentType: res.headers.get("content-type") };
}

function value(samples: Samples, name: string, labels: Record<string, string>): number {
  for (const [key, v] of samples) {
    if (!key.startsWith(`${name}{`) && key !== name) continue;
    if (Object.entries(labels).every(([k, val]) => key.includes(`${k}="${val}"`))) return v;
  }
  return 0;
}

/** Database gauges are read at most every 10 s, so a new object shows within one period. */
async function eventually(check: (samples: Samples) => boolean | Promise<boolean>): Promise<Samples> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const { samples } = await scrape();
    if ((await check(samples)) || Date.now() > deadline) return samples;
    await sleep(1000);
  }
}

const FILES = "filestorage.v1.FileStorageService";

describe("GET /metrics", () => {
  it("is not served on the public port: the gauges count every tenant's data", async () => {
    for (const method of ["GET", "HEAD"]) {
      const res = await fetch(`${apiUrl()}/metrics`, { method });
      expect(res.status, method).toBe(404);
      expect(await res.text()).not.toContain("audit_entries");
    }
  });

  it("serves the Prometheus text format on the metrics listener", async () => {
    const { samples, contentType } = await scrape();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(samples.has("process_cpu_user_seconds_total")).toBe(true);
  });

  it("counts RPCs by service, method and final code, REST calls included, with their latencies", async () => {
    const before = (await scrape()).samples;
    const token = await tokenFor(uniqueTenant());
    await rest("GET", "/api/v1/uploads", { token });
    await rest("GET", "/api/v1/uploads", { token });
    const missing = await rest("GET", "/api/v1/uploads/0191e1c6-0000-7000-8000-000000000000", { token });
    expect(missing.status).toBe(404);
    await rest("GET", "/api/v1/uploads");
    const after = (await scrape()).samples;

    const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(delta("rpc_requests_total", { service: FILES, method: "ListUploads", code: "ok" })).toBe(2);
    expect(delta("rpc_requests_total", { service: FILES, method: "ListUploads", code: "unauthenticated" })).toBe(1);
    expect(delta("rpc_requests_total", { service: FILES, method: "GetUpload", code: "not_found" })).toBe(1);
    expect(delta("rpc_request_duration_seconds_count", { service: FILES, method: "ListUploads", code: "ok" })).toBe(2);
    expect(value(after, "rpc_request_duration_seconds_bucket", { method: "ListUploads", code: "ok", le: "+Inf" })).toBeGreaterThanOrEqual(2);
  });

  it("reports stored objects by status, scans and failed checks from PostgreSQL, this test's objects included", async () => {
    const token = await tokenFor(uniqueTenant());
    const before = (await scrape()).samples;
    const ready = await uploadThrough(token, { objectClass: "USER_PROFILE_PHOTO", contentType: "image/png", bytes: png(8, 8), filename: "a.png" });
    const rejected = await uploadThrough(token, { objectClass: "USER_PROFILE_PHOTO", contentType: "image/png", bytes: exe(), filename: "b.png" });
    expect([ready.status, rejected.status]).toEqual(["READY", "REJECTED"]);

    // The scan gauges only grow within a run (deleted objects still count), so their growth since
    // `before` is this test's two scans (and no fewer); the live gauge must equal PostgreSQL's count,
    // read right after the scrape, at a moment when this test's READY object is in it.
    const delta = (s: Samples, name: string, labels: Record<string, string>) => value(s, name, labels) - value(before, name, labels);
    const liveReady = async () => (await sql<{ n: number }>("select count(*)::int as n from stored_objects where status = 'READY' and deleted_at is null"))[0]!.n;
    let readyInDb = -1;
    const samples = await eventually(async (s) => {
      readyInDb = await liveReady();
      return delta(s, "scans_24h", { result: "passed" }) >= 1 && delta(s, "scans_24h", { result: "failed" }) >= 1 && value(s, "stored_objects", { status: "READY" }) === readyInDb;
    });
    expect(delta(samples, "scans_24h", { result: "passed" }), "scans passed since before").toBeGreaterThanOrEqual(1);
    expect(delta(samples, "scans_24h", { result: "failed" }), "scans failed since before").toBeGreaterThanOrEqual(1);
    expect(delta(samples, "scan_failures_24h", { check: "magic_bytes" }), "magic_bytes failures since before").toBeGreaterThanOrEqual(1);
    expect(value(samples, "stored_objects", { status: "READY" }), "READY gauge = live READY rows").toBe(readyInDb);
    expect((await sql<{ status: string }>("select status from stored_objects where id = ? and deleted_at is null", [ready.id]))[0]?.status).toBe("READY");
    // The suite expires rejected files after 4 s, so REJECTED may already be back to 0; every
    // status is still reported.
    for (const status of ["PENDING_UPLOAD", "SCANNING", "REJECTED"]) expect(samples.has(`stored_objects{status="${status}"}`)).toBe(true);
    expect(value(samples, "scan_duration_seconds_24h", { quantile: "0.5" })).toBeGreaterThan(0);
    for (const status of ["PENDING", "DELIVERED", "FAILED", "ENDPOINT_DISABLED"]) {
      expect(samples.has(`webhook_deliveries_24h{status="${status}"}`)).toBe(true);
    }
  });

  it("counts custom field cache hits and misses", async () => {
    const token = await tokenFor(uniqueTenant());
    const before = (await scrape()).samples;
    await rest("GET", "/api/v1/custom-fields/Customer", { token });
    await rest("GET", "/api/v1/custom-fields/Customer", { token });
    const after = (await scrape()).samples;
    expect(value(after, "custom_fields_cache_requests_total", { result: "miss" }) - value(before, "custom_fields_cache_requests_total", { result: "miss" })).toBe(1);
    expect(value(after, "custom_fields_cache_requests_total", { result: "hit" }) - value(before, "custom_fields_cache_requests_total", { result: "hit" })).toBe(1);
  });
});
