/**
 * The connection bounds of the one-port server that the slow-client integration test cannot
 * isolate: answers that stream longer than the request timeout are not cut, the connection cap,
 * and the HTTP/2 SETTINGS acknowledgement deadline. Each close is awaited with a generous bound.
 */
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpLimitsConfig } from "../../../src/config/http-limits.js";
import { httpLimits } from "../../support/http-limits.js";
import { startHttpServer, type RequestHandler, type RunningHttpServer } from "../../../src/rpc/http-server.js";

const LIMITS = httpLimits({
  firstByteTimeoutSeconds: 1,
  headersTimeoutSeconds: 1,
  requestTimeoutSeconds: 1,
  keepAliveTimeoutSeconds: 1,
  unreadBodyLingerSeconds: 1,
  idleTimeoutSeconds: 10,
  maxConnections: 100,
  http2: { sessionIdleTimeoutSeconds: 1, settingsTimeoutSeconds: 1 },
});

/** Reads the request (as Connect does), then ten chunks 300 ms apart: three times the request timeout. */
const slowStream: RequestHandler = async (req, res) => {
  for await (const _ of req);
  const out = res as http.ServerResponse;
  out.writeHead(200, { "content-type": "text/plain" });
  for (let i = 0; i < 10; i++) {
    out.write(`${i}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  out.end();
};

const running: RunningHttpServer[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((server) => server.close(0)));
});

async function serve(limits: HttpLimitsConfig): Promise<string> {
  const server = await startHttpServer({
    host: "127.0.0.1",
    port: 0,
    logger: pino({ level: "silent" }),
    readiness: { check: async () => ({ ready: true, dependencies: [] }) } as never,
    newRequestId: () => "id",
    restPrefix: "/api/v1",
    rest: slowStream,
    connect: slowStream,
    limits,
  });
  running.push(server);
  return `http://127.0.0.1:${server.address.port}`;
}

function closedWithin(emitter: { once(event: "close", listener: () => void): unknown }, boundMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${boundMs} ms`)), boundMs);
    emitter.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function connect(origin: string): Promise<net.Socket> {
  const { port } = new URL(origin);
  const socket = net.connect(Number(port), "127.0.0.1");
  socket.on("error", () => undefined);
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  return socket;
}

/** The raw answer to one GET on a fresh connection, read until the server closes it. */
async function rawGet(origin: string, path: string): Promise<string> {
  const socket = await connect(origin);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  await closedWithin(socket, 10_000);
  return Buffer.concat(chunks).toString("latin1");
}

describe("limits that leave answers alone", () => {
  it("lets an HTTP/1.1 streaming answer outlast the request timeout", async () => {
    const answer = await rawGet(await serve(LIMITS), "/api/v1/stream");
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain("9\n");
  });

  it("lets an HTTP/2 streaming answer to a request with a body outlast the request and session idle timeouts", async () => {
    const session = http2.connect(await serve(LIMITS));
    try {
      const stream = session.request({ ":method": "POST", ":path": "/stream" });
      stream.end("a server-streaming call's request");
      let body = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (body += chunk));
      await new Promise<void>((resolve, reject) => stream.once("end", resolve).once("error", reject));
      expect(body).toContain("9\n");
      expect(stream.rstCode).toBe(http2.constants.NGHTTP2_NO_ERROR);
    } finally {
      session.destroy();
    }
  });
});

describe("connection limits", () => {
  it("refuses connections beyond the cap, and serves again once one closed", async () => {
    const origin = await serve({ ...LIMITS, firstByteTimeoutSeconds: 30, maxConnections: 3 });
    const held = await Promise.all([connect(origin), connect(origin), connect(origin)]);
    expect(await rawGet(origin, "/healthz")).toBe("");
    held[0].destroy();
    await closedWithin(held[0], 1000);
    expect(await rawGet(origin, "/healthz")).toMatch(/^HTTP\/1\.1 200/);
  });

  it("closes an HTTP/2 connection that never acknowledges the server's SETTINGS", async () => {
    const origin = await serve({ ...LIMITS, http2: { ...LIMITS.http2, sessionIdleTimeoutSeconds: 60 } });
    const socket = await connect(origin);
    socket.resume();
    // The preface and an empty SETTINGS frame (length 0, type 4, no flags, stream 0): no ACK ever.
    socket.write(Buffer.concat([Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1"), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])]));
    await closedWithin(socket, 5000);
  });
});
