import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookSender } from "../../../src/adapters/webhooks/http-sender.js";

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let port = 0;
const received: Received[] = [];
let answer = 204;
let delayMs = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      setTimeout(() => res.writeHead(answer).end("ok"), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const webhook = (url: string) => ({ url, headers: { "content-type": "application/json", "webhook-id": "msg_1" }, body: '{"type":"scan.passed"}' });

describe("the webhook sender", () => {
  it("POSTs the body with the given headers and answers the status", async () => {
    answer = 204;
    const send = createWebhookSender({ allowPrivate: true, timeoutMs: 2000 });
    const before = received.length;
    expect(await send(webhook(`http://127.0.0.1:${port}/hook`))).toEqual({ kind: "answered", status: 204 });
    expect(received.slice(before)).toEqual([
      expect.objectContaining({ body: '{"type":"scan.passed"}', headers: expect.objectContaining({ "webhook-id": "msg_1", "content-length": "22" }) }),
    ]);
  });

  it("refuses a loopback IP literal when private addresses are not allowed, without connecting", async () => {
    const send = createWebhookSender({ allowPrivate: false, timeoutMs: 2000 });
    const before = received.length;
    expect(await send(webhook(`http://127.0.0.1:${port}/hook`))).toEqual({ kind: "refused", reason: "host 127.0.0.1 resolves to 127.0.0.1, a loopback address" });
    expect(received.length).toBe(before);
  });

  it("checks the address the connection resolves, at connection time (a name that now points to loopback)", async () => {
    const send = createWebhookSender({ allowPrivate: false, timeoutMs: 2000, resolve: async () => ["127.0.0.1"] });
    const before = received.length;
    const result = await send(webhook(`http://rebound.example:${port}/hook`));
    expect(result).toEqual({ kind: "refused", reason: "host rebound.example resolves to 127.0.0.1, a loopback address" });
    expect(received.length).toBe(before);
  });

  it("connects to the address its own lookup resolved", async () => {
    answer = 200;
    const send = createWebhookSender({ allowPrivate: true, timeoutMs: 2000, resolve: async () => ["127.0.0.1"] });
    expect(await send(webhook(`http://receiver.test:${port}/hook`))).toEqual({ kind: "answered", status: 200 });
    expect(received.at(-1)?.headers.host).toBe(`receiver.test:${port}`);
  });

  it("a host that does not resolve is a failure worth retrying, not a refusal", async () => {
    const send = createWebhookSender({ allowPrivate: false, timeoutMs: 2000, resolve: async () => [] });
    expect(await send(webhook("https://gone.example/hook"))).toEqual({ kind: "failed", error: "host gone.example does not resolve" });
  });

  it("gives up on a receiver that does not answer in time", async () => {
    delayMs = 1000;
    try {
      const send = createWebhookSender({ allowPrivate: true, timeoutMs: 200 });
      expect(await send(webhook(`http://127.0.0.1:${port}/slow`))).toEqual({ kind: "failed", error: "no answer within 200 ms" });
    } finally {
      delayMs = 0;
    }
  });

  it("a refused connection is a failure worth retrying", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const send = createWebhookSender({ allowPrivate: true, timeoutMs: 2000 });
    expect(await send(webhook(`http://127.0.0.1:${freePort}/`))).toMatchObject({ kind: "failed", error: expect.stringContaining("ECONNREFUSED") });
  });
});
