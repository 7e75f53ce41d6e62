/**
 * Probes (/healthz, /readyz, gRPC health Check) come every few seconds; their request lines are
 * debug, so the info log of `npm start` holds the requests a person made.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.js";
import { startHttpServer, type RunningHttpServer } from "../../../src/rpc/http-server.js";
import { SAFE_MODE_ENV } from "../../support/config-env.js";

const lines: { level: number; msg: string; path?: string }[] = [];
let server: RunningHttpServer;
let base: string;

beforeAll(async () => {
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const notFound = (_req: unknown, res: { statusCode: number; end(): void }) => {
    res.statusCode = 404;
    res.end();
  };
  server = await startHttpServer({
    host: "127.0.0.1",
    port: 0,
    logger,
    readiness: { check: async () => ({ ready: true, dependencies: [] }) } as never,
    newRequestId: () => "id",
    restPrefix: "/api/v1",
    rest: notFound as never,
    connect: notFound as never,
    limits: parseConfig(SAFE_MODE_ENV).http,
  });
  base = `http://127.0.0.1:${server.address.port}`;
});
afterAll(() => server.close(0));

describe("request lines", () => {
  it("are debug for probes and info for everything else", async () => {
    for (const path of ["/healthz", "/readyz", "/grpc.health.v1.Health/Check", "/api/v1/files"]) {
      await (await fetch(`${base}${path}`, { method: path.startsWith("/grpc") ? "POST" : "GET" })).arrayBuffer();
    }
    await expect.poll(() => lines.filter((line) => line.msg === "request").length).toBe(4);
    const levels = Object.fromEntries(lines.filter((line) => line.msg === "request").map((line) => [line.path, pino.levels.labels[line.level]]));
    expect(levels).toEqual({ "/healthz": "debug", "/readyz": "debug", "/grpc.health.v1.Health/Check": "debug", "/api/v1/files": "info" });
  });
});
