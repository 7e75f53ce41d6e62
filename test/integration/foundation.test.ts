/**
 * What only the running server answers: liveness, readiness of the real dependencies, and request
 * ids on the HTTP dispatcher. Routing, authentication and bad input are specified in memory in
 * test/unit/rpc/ (rest-transcoding, authentication, error-mapping).
 */
import { describe, expect, inject, it } from "vitest";
import { apiUrl, rest } from "../support/clients.js";

describe("health", () => {
  it("answers /healthz while the process is up", async () => {
    const res = await fetch(`${apiUrl()}/healthz`);
    expect(res.status).toBe(200);
  });

  it("answers /readyz 200 with the status only: anyone can ask the public port", async () => {
    const res = await rest("GET", "/readyz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ready" });
  });

  it("gives every dependency's answer on the metrics listener's /readyz", async () => {
    const res = await fetch(`http://127.0.0.1:${inject("stackEnv").METRICS_PORT}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ready: boolean; dependencies: Record<string, unknown> };
    expect(body.ready).toBe(true);
    expect(Object.keys(body.dependencies).sort()).toEqual(["cache", "database", "malware_scanner", "storage", "temporal"]);
    // Reported, not required: uploads wait for the scanner while the API serves.
    expect(body.dependencies.malware_scanner).toEqual({ ok: true, optional: true });
  });

  it("serves no demo page and no development token outside development mode", async () => {
    for (const page of ["/demo", "/demo/token?tenant=any"]) expect((await fetch(`${apiUrl()}${page}`)).status, page).toBe(404);
  });

  it("returns the request id it was given, or a new one", async () => {
    const given = await fetch(`${apiUrl()}/healthz`, { headers: { "x-request-id": "req-abc-123" } });
    expect(given.headers.get("x-request-id")).toBe("req-abc-123");
    const generated = await fetch(`${apiUrl()}/healthz`);
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
