/**
 * Slow-loris against the running API, over both protocols of its one port: connections that
 * send nothing, headers dribbled a byte at a time, HTTP/2 sessions and streams left open, are
 * closed by the server within a bound (the test environment sets short timeouts in
 * global-setup.ts), and while many are held open ordinary calls are still served. Each close is
 * awaited with a generous bound (5x the configured timeout), never timed precisely.
 */
import http2 from "node:http2";
import net from "node:net";
import { createClient } from "@connectrpc/connect";
import { afterEach, describe, expect, inject, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus } from "@files-and-fields/client/gen/grpc/health/v1/health_pb.js";
import { ObjectClass } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { clientsFor, rest, tokenFor, transportFor, uniqueTenant } from "../support/clients.js";

const seconds = (name: string) => Number(inject("stackEnv")[name]) * 1000;
const FIRST_BYTE_MS = seconds("HTTP_FIRST_BYTE_TIMEOUT_SECONDS");
const HEADERS_MS = seconds("HTTP_HEADERS_TIMEOUT_SECONDS");
const REQUEST_MS = seconds("HTTP_REQUEST_TIMEOUT_SECONDS");
const SESSION_IDLE_MS = seconds("HTTP2_SESSION_IDLE_TIMEOUT_SECONDS");

const address = () => new URL(inject("apiUrl"));
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Resolves when `emitter` emits "close", rejects when that takes longer than `boundMs`. */
function closedWithin(emitter: { once(event: "close", listener: () => void): unknown }, boundMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} still open after ${boundMs} ms`)), boundMs);
    emitter.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function rawSocket(): Promise<net.Socket> {
  const { hostname, port } = address();
  const socket = net.connect(Number(port), hostname);
  socket.on("error", () => undefined);
  socket.resume();
  cleanups.push(() => socket.destroy());
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  return socket;
}

/** Sends a request line, then one header byte every 200 ms, never the end of the headers. */
async function dribblingSocket(): Promise<net.Socket> {
  const socket = await rawSocket();
  socket.write(`GET /healthz HTTP/1.1\r\nHost: ${address().host}\r\nX-Slow: `);
  const drip = setInterval(() => socket.writable && socket.write("a"), 200);
  socket.once("close", () => clearInterval(drip));
  cleanups.push(() => clearInterval(drip));
  return socket;
}

/** An h2c session (prior knowledge, as gRPC clients speak it) that is set up and then sends nothing. */
async function silentSession(): Promise<http2.ClientHttp2Session> {
  const session = http2.connect(address().origin);
  session.on("error", () => undefined);
  cleanups.push(() => session.destroy());
  await new Promise<void>((resolve, reject) => session.once("connect", () => resolve()).once("error", reject));
  return session;
}

describe("HTTP/1.1 slow clients", () => {
  it("closes a connection that never sends a byte", async () => {
    const socket = await rawSocket();
    await closedWithin(socket, 5 * FIRST_BYTE_MS, "silent connection");
  });

  it("closes a connection that dribbles its headers", async () => {
    const socket = await dribblingSocket();
    const answer: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => answer.push(chunk));
    await closedWithin(socket, 5 * HEADERS_MS, "dribbling connection");
    // Nothing was served: at most Node's 408 for the headers that never ended.
    expect(Buffer.concat(answer).toString("latin1")).not.toMatch(/^HTTP\/1\.1 200/);
  });
});

describe("HTTP/2 slow clients", () => {
  it("closes a session that opens and then sends nothing", async () => {
    const session = await silentSession();
    await closedWithin(session, 5 * SESSION_IDLE_MS, "idle session");
  });

  it("closes a connection that sends the HTTP/2 preface and nothing after it", async () => {
    const socket = await rawSocket();
    socket.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    await closedWithin(socket, 5 * SESSION_IDLE_MS, "half-open session");
  });

  it("cancels a stream whose request body never ends", async () => {
    const session = await silentSession();
    const stream = session.request({
      ":method": "POST",
      ":path": "/grpc.health.v1.Health/Check",
      "content-type": "application/grpc",
      te: "trailers",
    });
    stream.on("error", () => undefined);
    stream.resume();
    // A gRPC frame header announcing 100 bytes, then none of them.
    stream.write(Buffer.from([0, 0, 0, 0, 100]));
    await closedWithin(stream, 5 * REQUEST_MS, "stream with an unfinished body");
    expect(stream.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
  });
});

describe("many slow clients at once", () => {
  it("serves REST and gRPC while 50 slow connections are open, then closes them all", async () => {
    const slow = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 3 === 0 ? rawSocket() : i % 3 === 1 ? dribblingSocket() : silentSession())),
    );
    const health = await createClient(Health, transportFor("grpc")).check({});
    expect(health.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    const token = await tokenFor(uniqueTenant());
    const started = await clientsFor("grpc", token).files.initiateUpload({
      objectClass: ObjectClass.GENERAL_DOCUMENT,
      ownerEntityType: "Account",
      ownerEntityId: "acc-1",
      originalFilename: "scan.png",
      contentType: "image/png",
      fileSize: 100n,
    });
    const viaRest = await rest("GET", `/api/v1/uploads/${started.storedObject!.id}`, { token });
    expect(viaRest.status).toBe(200);
    const bound = 5 * Math.max(FIRST_BYTE_MS, HEADERS_MS, SESSION_IDLE_MS);
    await Promise.all(slow.map((connection, i) => closedWithin(connection, bound, `slow connection ${i}`)));
  });
});
