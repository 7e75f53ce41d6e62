/**
 * Long quiet calls over HTTP/2 on the one-port server, with short limits: a grpc-js health Watch
 * outlives the idle timeouts (it was cancelled after HTTP_IDLE_TIMEOUT_SECONDS, 120 s by default)
 * and still sends changes, while a session without streams is still closed once idle and a reader
 * that stopped reading is still cancelled; a session whose client stops answering the server's
 * PINGs is closed. Each close is awaited with a generous bound, never timed precisely.
 */
import http2 from "node:http2";
import net from "node:net";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpLimitsConfig } from "../../../src/config/http-limits.js";
import { httpLimits } from "../../support/http-limits.js";
import { createRpcHandler } from "../../../src/rpc/front-door/rpc-handler.js";
import { registerHealthService } from "../../../src/rpc/health-service.js";
import { startHttpServer, type RequestHandler, type RunningHttpServer } from "../../../src/rpc/http-server.js";

const IDLE_SECONDS = 1;
const LIMITS = httpLimits({
  firstByteTimeoutSeconds: 5,
  headersTimeoutSeconds: 5,
  requestTimeoutSeconds: 5,
  keepAliveTimeoutSeconds: 1,
  unreadBodyLingerSeconds: 1,
  idleTimeoutSeconds: IDLE_SECONDS,
  maxConnections: 100,
  http2: { sessionIdleTimeoutSeconds: IDLE_SECONDS, settingsTimeoutSeconds: 5, pingIntervalSeconds: 1, pingTimeoutSeconds: 1 },
});

type HealthClient = grpc.Client & { watch(request: object): grpc.ClientReadableStream<{ status: string }> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The server with the health service over a readiness the test flips; `other` answers every other path. */
async function serve(limits: HttpLimitsConfig, other?: RequestHandler) {
  const state = { ready: true };
  const readiness = { check: async () => ({ ready: state.ready, dependencies: {} }) };
  const logger = pino({ level: "silent" });
  const rpc = createRpcHandler({ routes: (router) => registerHealthService(router, readiness), logger });
  const server: RunningHttpServer = await startHttpServer({
    host: "127.0.0.1",
    port: 0,
    logger,
    readiness,
    newRequestId: () => "id",
    restPrefix: "/api/v1",
    rest: (_req, res) => void res.end(),
    connect: (req, res) => (other && req.url === "/other" ? other(req, res) : rpc(req, res)),
    limits,
  });
  cleanups.push(() => server.close(0));
  return { port: server.address.port, state };
}

function healthClient(port: number): HealthClient {
  const definition = protoLoader.loadSync("grpc/health/v1/health.proto", { includeDirs: [path.join(process.cwd(), ".proto-deps")], enums: String, defaults: true });
  const loaded = grpc.loadPackageDefinition(definition) as any;
  const client = new loaded.grpc.health.v1.Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as HealthClient;
  cleanups.push(() => client.close());
  return client;
}

/** A Watch of the server that keeps every answer and how it ended, if it did. */
function watch(client: HealthClient) {
  const call = client.watch({ service: "" });
  cleanups.push(() => call.cancel());
  const seen = { answers: [] as string[], ended: undefined as string | undefined };
  call.on("data", (answer: { status: string }) => seen.answers.push(answer.status));
  call.on("error", () => undefined);
  call.on("status", (status: grpc.StatusObject) => (seen.ended = grpc.status[status.code]));
  return seen;
}

async function until(condition: () => boolean, boundMs: number, what: string): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${boundMs} ms`);
    await sleep(50);
  }
}

function closedWithin(emitter: { once(event: "close", listener: () => void): unknown }, boundMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} still open after ${boundMs} ms`)), boundMs);
    emitter.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function h2Session(port: number): http2.ClientHttp2Session {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on("error", () => undefined);
  cleanups.push(() => session.destroy());
  return session;
}

/**
 * A TCP relay to the server that can be frozen: from then on it drops every byte both ways and
 * keeps both connections open, as a network that went away without a word does.
 */
async function freezableRelay(port: number) {
  const relay = { frozen: false, upstream: undefined as net.Socket | undefined, port: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    relay.upstream = upstream;
    for (const socket of [client, upstream]) socket.on("error", () => undefined);
    client.on("data", (chunk) => relay.frozen || upstream.write(chunk));
    upstream.on("data", (chunk) => relay.frozen || client.write(chunk));
    client.once("close", () => upstream.destroy());
    cleanups.push(() => (client.destroy(), upstream.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  relay.port = (server.address() as net.AddressInfo).port;
  return relay;
}

describe("long quiet calls over HTTP/2", () => {
  it("keeps a grpc-js health Watch open past the idle timeouts, still sending changes, while an idle session is closed", { timeout: 30_000 }, async () => {
    const { port, state } = await serve(LIMITS);
    const watched = watch(healthClient(port));
    await until(() => watched.answers.length === 1, 5000, "the first answer");
    const idle = h2Session(port);
    await closedWithin(idle, 5 * IDLE_SECONDS * 1000, "session without streams");
    // Four idle timeouts with nothing sent on the Watch's stream.
    await sleep(4 * IDLE_SECONDS * 1000);
    expect(watched).toEqual({ answers: ["SERVING"], ended: undefined });
    state.ready = false;
    await until(() => watched.answers.length === 2 || watched.ended !== undefined, 5000, "the change");
    expect(watched).toEqual({ answers: ["SERVING", "NOT_SERVING"], ended: undefined });
  });

  it("still cancels a stream whose reader stopped reading", { timeout: 30_000 }, async () => {
    const stuck: RequestHandler = async (req, res) => {
      for await (const _ of req);
      // Far more than the client's flow-control window: most of it waits for a reader.
      res.end(Buffer.alloc(4 * 1024 * 1024));
    };
    const { port } = await serve({ ...LIMITS, http2: { ...LIMITS.http2, sessionIdleTimeoutSeconds: 60 } }, stuck);
    const stream = h2Session(port).request({ ":method": "POST", ":path": "/other" });
    stream.on("error", () => undefined);
    stream.end();
    stream.pause();
    await closedWithin(stream, 5 * IDLE_SECONDS * 1000 + 5000, "stream of a reader that stopped reading");
    expect(stream.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
  });

  it("closes a session whose client stops answering pings, ending its Watch", { timeout: 30_000 }, async () => {
    // Idle bounds far away: only the unanswered PING can close the session within the bound.
    const { port } = await serve({ ...LIMITS, idleTimeoutSeconds: 60, http2: { ...LIMITS.http2, sessionIdleTimeoutSeconds: 60 } });
    const relay = await freezableRelay(port);
    const watched = watch(healthClient(relay.port));
    await until(() => watched.answers.length === 1, 5000, "the first answer");
    relay.frozen = true;
    const bound = 5 * (LIMITS.http2.pingIntervalSeconds + LIMITS.http2.pingTimeoutSeconds) * 1000;
    await closedWithin(relay.upstream!, bound, "session whose client stopped answering");
  });
});
