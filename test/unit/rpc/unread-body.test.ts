/**
 * An HTTP/1.1 request the front door answers before reading its body to the end (a gRPC-Web
 * message or a JSON body over the limit, refused from its length) while its client still sends
 * (src/rpc/unread-body.ts): the client reads the answer, never a reset (the Connect conformance
 * suite's client read a broken pipe in one run of about twenty-five), and its next request on the
 * connection is answered, not held behind the unread body until the request timeout (a 408 or a
 * reset); a client that never finishes its body is disconnected after the linger.
 */
import http from "node:http";
import net from "node:net";
import { createRouterTransport } from "@connectrpc/connect";
import pino from "pino";
import { afterEach, expect, it } from "vitest";
import { httpLimits } from "../../support/http-limits.js";
import { createRpcHandler } from "../../../src/rpc/front-door/rpc-handler.js";
import { registerHealthService } from "../../../src/rpc/health-service.js";
import { startHttpServer } from "../../../src/rpc/http-server.js";
import { jsonApiServices } from "../../../src/rpc/openapi/generate-openapi.js";
import { createRestHandler } from "../../../src/rpc/rest/rest-handler.js";

const LIMITS = httpLimits({
  firstByteTimeoutSeconds: 2,
  // Short, so that the failure (a request stuck behind the unread body) shows quickly.
  headersTimeoutSeconds: 2,
  requestTimeoutSeconds: 2,
  unreadBodyLingerSeconds: 1,
  idleTimeoutSeconds: 5,
  maxConnections: 10,
  http2: { sessionIdleTimeoutSeconds: 5, settingsTimeoutSeconds: 5, pingIntervalSeconds: 5, pingTimeoutSeconds: 5, maxConcurrentStreams: 10 },
});
const READ_MAX_BYTES = 1024;
const CHECK = "/grpc.health.v1.Health/Check";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(limits = LIMITS): Promise<number> {
  const readiness = { check: async () => ({ ready: true, dependencies: {} }) };
  const logger = pino({ level: "silent" });
  const rpc = createRpcHandler({ routes: (router) => registerHealthService(router, readiness), logger, readMaxBytes: READ_MAX_BYTES });
  // The JSON API refuses a body over its limit before any call: its transport is never reached.
  const rest = createRestHandler({ services: jsonApiServices, transport: createRouterTransport(() => {}), maxBodyBytes: READ_MAX_BYTES, prefix: "/api/v1" });
  const server = await startHttpServer({ host: "127.0.0.1", port: 0, logger, readiness, newRequestId: () => "id", restPrefix: "/api/v1", rest, connect: rpc, limits });
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

/** A raw HTTP/1.1 connection: what it has received, and whether the server closed it. */
function connection(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  cleanups.push(() => socket.destroy());
  let received = "";
  let ended: string | undefined;
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  socket.on("error", (error: NodeJS.ErrnoException) => (ended = error.code));
  socket.on("close", () => (ended ??= "closed"));
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  return {
    socket,
    /** Waits for the nth answer's end (each of these is chunked: it ends with an empty chunk), or the end of the connection. */
    answers: async (n: number) => {
      await until(() => ended !== undefined || (received.match(/\r\n0\r\n\r\n/g)?.length ?? 0) >= n);
      return { received, ended };
    },
    closed: async () => {
      await until(() => ended !== undefined);
      return ended;
    },
  };
}

const GRPC_WEB_HEAD = (length: number) => `POST ${CHECK} HTTP/1.1\r\nhost: x\r\ncontent-type: application/grpc-web+proto\r\ncontent-length: ${length}\r\n\r\n`;

/** A gRPC-Web body of one message of `size` bytes: its envelope, then the message. */
function grpcWebBody(size: number): [Buffer, Buffer] {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(size, 1);
  return [prefix, Buffer.alloc(size)];
}

it("lets a client that sends its body after reading the refusal finish it, and answers its next request on the connection", async () => {
  const port = await serve();
  const client = connection(port);
  const [prefix, message] = grpcWebBody(300 * 1024);
  client.socket.write(GRPC_WEB_HEAD(prefix.length + message.length) + prefix.toString("latin1"), "latin1");
  // The envelope alone is refused: the answer comes while the body has not been sent.
  const refused = await client.answers(1);
  expect(refused.ended).toBeUndefined();
  expect(refused.received).toMatch(/grpc-status:\s*8/);
  // Were the connection closed after the answer, these writes would meet a reset.
  client.socket.write(message);
  const [emptyPrefix] = grpcWebBody(0);
  client.socket.write(GRPC_WEB_HEAD(emptyPrefix.length) + emptyPrefix.toString("latin1"), "latin1");
  const next = await client.answers(2);
  expect(next.ended).toBeUndefined();
  expect(next.received).toMatch(/grpc-status:\s*0/);
});

it("does the same for a JSON API body over the limit (413)", async () => {
  const port = await serve();
  const client = connection(port);
  const body = Buffer.alloc(300 * 1024, "x");
  client.socket.write(`POST /api/v1/customers HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
  client.socket.write(body.subarray(0, 2 * READ_MAX_BYTES));
  const refused = await client.answers(1);
  expect(refused.ended).toBeUndefined();
  expect(refused.received).toMatch(/^HTTP\/1.1 413 /);
  client.socket.write(body.subarray(2 * READ_MAX_BYTES));
  client.socket.write(GRPC_WEB_HEAD(5) + grpcWebBody(0)[0].toString("latin1"), "latin1");
  const next = await client.answers(2);
  expect(next.ended).toBeUndefined();
  expect(next.received).toMatch(/grpc-status:\s*0/);
});

it("disconnects a client still sending an answered body after the linger, though it is never idle", async () => {
  // Timeouts that would end the connection otherwise are far beyond the test's own.
  const port = await serve({ ...LIMITS, headersTimeoutSeconds: 60, requestTimeoutSeconds: 60, keepAliveTimeoutSeconds: 60, idleTimeoutSeconds: 60 });
  const client = connection(port);
  const [prefix] = grpcWebBody(300 * 1024);
  client.socket.write(GRPC_WEB_HEAD(prefix.length + 300 * 1024) + prefix.toString("latin1"), "latin1");
  expect((await client.answers(1)).received).toMatch(/grpc-status:\s*8/);
  const trickle = setInterval(() => client.socket.write(Buffer.alloc(1)), 100);
  cleanups.push(() => clearInterval(trickle));
  expect(await client.closed()).toMatch(/closed|ECONNRESET|EPIPE/);
});
