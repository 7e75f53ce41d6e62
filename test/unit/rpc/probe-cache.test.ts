/**
 * Probes anyone may send (public /readyz, gRPC health) answer from a cached readiness: at most one
 * dependency check per second however many probes arrive, concurrent ones sharing the check in
 * flight. Time is an injected clock; nothing here waits on the wall clock.
 */
import { createClient, createRouterTransport } from "@connectrpc/connect";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from "@files-and-fields/client/gen/grpc/health/v1/health_pb.js";
import { createReadiness, type DependencyProbe } from "../../../src/app/readiness.js";
import { registerHealthService } from "../../../src/rpc/health-service.js";
import { startHttpServer, type RunningHttpServer } from "../../../src/rpc/http-server.js";
import { httpLimits } from "../../support/http-limits.js";

/** A dependency that counts its pings and answers when the test says so. */
function countingDependency() {
  const state = { checks: 0, ready: true, pending: [] as (() => void)[], hold: false };
  const probe: DependencyProbe = {
    name: "database",
    async check() {
      state.checks++;
      if (state.hold) await new Promise<void>((resolve) => state.pending.push(resolve));
      if (!state.ready) throw new Error("connection refused");
    },
  };
  const release = () => state.pending.splice(0).forEach((resolve) => resolve());
  return { state, probes: [probe], release };
}

function clock() {
  let ms = 10_000;
  return { now: () => ms, advance: (by: number) => (ms += by) };
}

describe("readiness as probes ask it", () => {
  it("shares one check among concurrent callers while it is in flight", async () => {
    const deps = countingDependency();
    const time = clock();
    const cached = createReadiness(deps.probes, time);
    deps.state.hold = true;
    const answers = Array.from({ length: 200 }, () => cached.check());
    deps.release();
    expect((await Promise.all(answers)).every((r) => r.ready)).toBe(true);
    expect(deps.state.checks).toBe(1);
  });

  it("checks again only once the last report is a second old, and then only once", async () => {
    const deps = countingDependency();
    const time = clock();
    const cached = createReadiness(deps.probes, time);
    await cached.check();
    time.advance(999);
    deps.state.ready = false;
    await Promise.all(Array.from({ length: 50 }, () => cached.check()));
    expect(deps.state.checks).toBe(1);
    expect((await cached.check()).ready).toBe(true);

    time.advance(1);
    const after = await Promise.all(Array.from({ length: 50 }, () => cached.check()));
    expect(deps.state.checks).toBe(2);
    expect(after.every((r) => !r.ready)).toBe(true);
  });

  it("counts a report's age from the start of its check: a slow check is not trusted for longer", async () => {
    const deps = countingDependency();
    const time = clock();
    const cached = createReadiness(deps.probes, time);
    deps.state.hold = true;
    const first = cached.check();
    time.advance(1500);
    const joined = Array.from({ length: 10 }, () => cached.check());
    deps.release();
    await Promise.all([first, ...joined]);
    expect(deps.state.checks).toBe(1);
    deps.state.hold = false;
    await cached.check();
    expect(deps.state.checks).toBe(2);
  });
});

describe("probes through the server", () => {
  const servers: RunningHttpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close(0)));
  });

  it("100 concurrent /readyz requests and 100 gRPC health checks cost one dependency check in a second", async () => {
    const deps = countingDependency();
    const time = clock();
    const readiness = createReadiness(deps.probes, time);
    const server = await startHttpServer({
      host: "127.0.0.1",
      port: 0,
      logger: pino({ level: "silent" }),
      readiness,
      newRequestId: () => "id",
      restPrefix: "/api/v1",
      rest: (_req, res) => void res.end(),
      connect: (_req, res) => void res.end(),
      limits: httpLimits({
        firstByteTimeoutSeconds: 5,
        headersTimeoutSeconds: 5,
        requestTimeoutSeconds: 5,
        keepAliveTimeoutSeconds: 1,
        unreadBodyLingerSeconds: 1,
        idleTimeoutSeconds: 10,
        maxConnections: 500,
        http2: { sessionIdleTimeoutSeconds: 5, settingsTimeoutSeconds: 5 },
      }),
    });
    servers.push(server);
    const health = createClient(Health, createRouterTransport((router) => registerHealthService(router, readiness)));

    deps.state.hold = true;
    const probes = Array.from({ length: 100 }, () => fetch(`http://127.0.0.1:${server.address.port}/readyz`).then((r) => r.status));
    const checks = Array.from({ length: 100 }, () => health.check({}).then((r) => r.status));
    // Every probe is waiting on the one check in flight before it is let go.
    while (deps.state.pending.length === 0) await new Promise((resolve) => setImmediate(resolve));
    deps.release();
    expect(new Set(await Promise.all(probes))).toEqual(new Set([200]));
    expect(new Set(await Promise.all(checks))).toEqual(new Set([ServingStatus.SERVING]));
    expect(deps.state.checks).toBe(1);

    time.advance(1000);
    deps.state.hold = false;
    await Promise.all(Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${server.address.port}/readyz`)));
    expect(deps.state.checks).toBe(2);
  });
});
