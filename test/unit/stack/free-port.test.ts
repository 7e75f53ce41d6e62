import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ephemeralRangeStart, findFreePort, findFreePortBelow, isPortFree } from "../../../src/stack/free-port.js";
import { DEFAULT_PORTS, PortInUseError, portFromEnv, resolvePort } from "../../../src/stack/ports.js";

const servers: Server[] = [];

function listen(port = 0, host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    servers.push(server);
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : 0);
    });
  });
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("isPortFree", () => {
  it("is false for a port something listens on, true once it is closed", async () => {
    const port = await listen();
    expect(await isPortFree(port)).toBe(false);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await isPortFree(port)).toBe(true);
  });

  it("is false when a server holds the port on all interfaces", async () => {
    const port = await listen(0, "0.0.0.0");
    expect(await isPortFree(port)).toBe(false);
  });
});

describe("findFreePort", () => {
  it("returns a port that can be bound", async () => {
    const port = await findFreePort();
    expect(port).toBeGreaterThan(0);
    expect(await listen(port)).toBe(port);
  });

  // Handed to a child that binds it later: an OS-chosen port could meanwhile go to the child's own
  // port-0 listener (a test's API server lost its port to its metrics listener) or a connection.
  it("picks below the ephemeral range and never a port it is told to avoid", async () => {
    const start = ephemeralRangeStart();
    const ports = await Promise.all(Array.from({ length: 20 }, () => findFreePort({ avoid: [start - 1] })));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(start - 1);
    }
  });

  it("never hands out the same port twice in one process", async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => findFreePort()));
    expect(new Set(ports).size).toBe(ports.length);
  });
});

describe("findFreePortBelow", () => {
  // Temporal's membership ports go into a smallint column; the OS's ephemeral ports do not fit.
  it("returns distinct bindable ports below the limit", async () => {
    const ports = await Promise.all(Array.from({ length: 10 }, () => findFreePortBelow(32_768)));
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) expect(port).toBeLessThan(32_768);
    expect(await listen(ports[0])).toBe(ports[0]);
  });
});

describe("ports", () => {
  it("keeps the defaults away from commonly running services", () => {
    const defaults = Object.values(DEFAULT_PORTS).map((spec) => spec.port);
    expect(defaults).toEqual([54329, 9000, 9001, 7233, 8233, 63790, 33100]);
    expect(defaults).not.toContain(5432);
    expect(defaults).not.toContain(6379);
    expect(defaults).not.toContain(3310);
  });

  it("'free' never picks a default port", async () => {
    const defaults = new Set(Object.values(DEFAULT_PORTS).map((spec) => spec.port));
    for (let i = 0; i < 20; i++) expect(defaults.has(await resolvePort("postgres", "free", {}))).toBe(false);
  });

  // A component a test stops and starts again (Temporal, PostgreSQL, MinIO) takes its port back:
  // no connection can have been given it as its local port meanwhile (a CI run's Temporal UI was).
  it("'free' picks ports below the ephemeral range", async () => {
    const start = ephemeralRangeStart();
    expect(start).toBeGreaterThan(10_000);
    for (let i = 0; i < 20; i++) expect(await resolvePort("temporalUi", "free", {})).toBeLessThan(start);
  });

  it("'defaults' fails on a taken port, naming it and the variables to change", async () => {
    const taken = await listen();
    const attempt = resolvePort("minio", "defaults", { STACK_MINIO_PORT: String(taken) });
    await expect(attempt).rejects.toBeInstanceOf(PortInUseError);
    await expect(attempt).rejects.toThrow(new RegExp(`port ${taken} .*STACK_MINIO_PORT.*STORAGE_ENDPOINT`));
  });

  it("'defaults' uses an override port when it is free", async () => {
    const port = await findFreePort();
    expect(await resolvePort("temporal", "defaults", { STACK_TEMPORAL_PORT: String(port) })).toBe(port);
  });

  it("parses STACK_*_PORT variables strictly", () => {
    expect(portFromEnv({}, "STACK_POSTGRES_PORT")).toBeUndefined();
    expect(portFromEnv({ STACK_POSTGRES_PORT: " " }, "STACK_POSTGRES_PORT")).toBeUndefined();
    expect(portFromEnv({ STACK_POSTGRES_PORT: "15432" }, "STACK_POSTGRES_PORT")).toBe(15432);
    for (const bad of ["0", "65536", "12ab", "-1", "1.5"]) {
      expect(() => portFromEnv({ STACK_POSTGRES_PORT: bad }, "STACK_POSTGRES_PORT")).toThrow(/STACK_POSTGRES_PORT/);
    }
  });
});
