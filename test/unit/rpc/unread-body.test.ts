/**
 * An HTTP/1.1 request the front door answers before reading its body to the end (a gRPC-Web
 * message over the limit, refused from its envelope's length) must not hold its keep-alive
 * connection: the client's next request on it used to wait behind the unread body until the
 * request timeout and get a 408 or a reset.
 */
import http from "node:http";
import pino from "pino";
import { afterEach, expect, it } from "vitest";
import type { HttpLimitsConfig } from "../../../src/config/http-limits.js";
import { createRpcHandler } from "../../../src/rpc/front-door/rpc-handler.js";
import { registerHealthService } from "../../../src/rpc/health-service.js";
import { startHttpServer } from "../../../src/rpc/http-server.js";

const LIMITS: HttpLimitsConfig = {
  firstByteTimeoutSeconds: 2,
  // Short, so that the failure (a request stuck behind the unread body) shows quickly.
  headersTimeoutSeconds: 2,
  requestTimeoutSeconds: 2,
  keepAliveTimeoutSeconds: 5,
  idleTimeoutSeconds: 5,
  maxConnections: 10,
  maxHeaderBytes: 16_384,
  http2: { sessionIdleTimeoutSeconds: 5, settingsTimeoutSeconds: 5, pingIntervalSeconds: 5, pingTimeoutSeconds: 5, maxConcurrentStreams: 10, maxSessionMemoryMegabytes: 10 },
};
const READ_MAX_BYTES = 1024;
const CHECK = "/grpc.health.v1.Health/Check";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(): Promise<number> {
  const readiness = { check: async () => ({ ready: true, dependencies: {} }) };
  const logger = pino({ level: "silent" });
  const rpc = createRpcHandler({ routes: (router) => registerHealthService(router, readiness), logger, readMaxBytes: READ_MAX_BYTES });
  const server = await startHttpServer({ host: "127.0.0.1", port: 0, logger, readiness, newRequestId: () => "id", restPrefix: "/api/v1", rest: (_req, res) => void res.end(), connect: rpc, limits: LIMITS });
  cleanups.push(() => server.close(0));
  return server.address.port;
}

/** A gRPC-Web call's HTTP status and grpc-status, over the given agent, and the client port it went from. */
function grpcWeb(port: number, agent: http.Agent, message: Buffer): Promise<{ status?: number; grpcStatus?: string; from?: number }> {
  const body = Buffer.alloc(5 + message.length);
  body.writeUInt32BE(message.length, 1);
  message.copy(body, 5);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: CHECK, method: "POST", agent, headers: { "content-type": "application/grpc-web+proto", "content-length": body.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      const from = res.socket.localPort;
      res.on("end", () => resolve({ status: res.statusCode, grpcStatus: /grpc-status:\s*(\d+)/.exec(Buffer.concat(chunks).toString("latin1"))?.[1], from }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

it("answers the next request of a keep-alive client after refusing a message over the limit unread", async () => {
  const port = await serve();
  // One socket: the second call goes on the first one's connection if the server keeps it.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  cleanups.push(() => agent.destroy());
  const refused = await grpcWeb(port, agent, Buffer.alloc(300 * 1024));
  expect(refused).toMatchObject({ status: 200, grpcStatus: "8" });
  expect(await grpcWeb(port, agent, Buffer.alloc(0))).toMatchObject({ status: 200, grpcStatus: "0" });
});

it("keeps the connection of a request read to its end", async () => {
  const port = await serve();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  cleanups.push(() => agent.destroy());
  const first = await grpcWeb(port, agent, Buffer.alloc(0));
  const second = await grpcWeb(port, agent, Buffer.alloc(0));
  expect([first.grpcStatus, second.grpcStatus, second.from]).toEqual(["0", "0", first.from]);
});
