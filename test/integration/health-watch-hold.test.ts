/**
 * A health Watch lasts as long as its client: held open for 5 minutes (HEALTH_WATCH_HOLD_SECONDS),
 * far past the HTTP/2 session idle timeout (3 s in the test stack, 120 s by default), which cut it
 * before HTTP/2 PINGs kept quiet sessions open, and across a change of readiness, sent when it
 * happens. The change comes from an API server of this test's own whose storage is reached
 * through a TCP relay the test cuts and restores, so the shared stack's MinIO stays up for the
 * files that run beside this one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findFreePort } from "../../src/stack/free-port.js";
import { ProcessSupervisor } from "../support/process-supervisor.js";
import { sleep } from "../support/stack-access.js";

const HOLD_MS = Number(process.env.HEALTH_WATCH_HOLD_SECONDS ?? 300) * 1000;

/** A TCP relay to `target` that can be cut (connections dropped, new ones refused) and restored on the same port. */
async function tcpRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(a);
      a.pipe(b);
      a.on("error", () => b.destroy());
      a.on("close", () => {
        sockets.delete(a);
        b.destroy();
      });
    }
  });
  const port = await findFreePort();
  const listen = () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    async cut() {
      await new Promise((resolve) => {
        server.close(resolve);
        for (const socket of sockets) socket.destroy();
      });
    },
    restore: listen,
    close: () => server.close(),
  };
}

let relay: Awaited<ReturnType<typeof tcpRelay>>;
let supervisor: ProcessSupervisor;
let logDir: string;
let health: grpc.Client & { watch(request: object): grpc.ClientReadableStream<{ status: string }> };

beforeAll(async () => {
  const env = inject("stackEnv");
  relay = await tcpRelay(new URL(env.STORAGE_ENDPOINT!));
  const port = await findFreePort();
  logDir = mkdtempSync(path.join(os.tmpdir(), "health-watch-"));
  supervisor = new ProcessSupervisor(process.cwd(), { ...env, PORT: String(port), METRICS_PORT: "0", STORAGE_ENDPOINT: relay.url, WORKER_SCHEDULES: "false" }, logDir);
  await supervisor.startApi();
  const definition = protoLoader.loadSync("grpc/health/v1/health.proto", { includeDirs: [path.join(process.cwd(), ".proto-deps")], enums: String, defaults: true });
  const loaded = grpc.loadPackageDefinition(definition) as any;
  health = new loaded.grpc.health.v1.Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}, 120_000);

afterAll(async () => {
  health?.close();
  await supervisor?.stopAll();
  relay?.close();
  rmSync(logDir, { recursive: true, force: true });
});

/** The answers of a Watch as they arrive, and how it ended if it did. */
function watch(service: string) {
  const call = health.watch({ service });
  const seen = { answers: [] as { status: string; atMs: number }[], ended: undefined as string | undefined };
  const started = Date.now();
  call.on("data", (answer: { status: string }) => seen.answers.push({ status: answer.status, atMs: Date.now() - started }));
  call.on("error", () => undefined);
  call.on("status", (status: grpc.StatusObject) => (seen.ended = `${grpc.status[status.code]} ${status.details}`));
  return { call, seen, statuses: () => seen.answers.map((a) => a.status) };
}

async function until(done: () => boolean, withinMs: number, what: string): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!done() && Date.now() < deadline) await sleep(100);
  expect(done(), what).toBe(true);
}

describe("a health Watch held open", () => {
  it(`stays open for ${HOLD_MS / 1000} s and sends the change of readiness in the middle, and nothing else`, { timeout: HOLD_MS + 120_000 }, async () => {
    const server = watch("");
    const files = watch("filestorage.v1.FileStorageService");
    try {
      const started = Date.now();
      await until(() => server.seen.answers.length === 1 && files.seen.answers.length === 1, 10_000, "the first answers");
      expect([server.statuses(), files.statuses()]).toEqual([["SERVING"], ["SERVING"]]);

      await sleep(HOLD_MS / 2 - (Date.now() - started));
      await relay.cut();
      await until(() => files.seen.answers.length >= 2 || files.seen.ended !== undefined, 30_000, `NOT_SERVING once storage is cut: ${JSON.stringify(files.seen)}`);
      await relay.restore();
      await until(() => files.seen.answers.length >= 3 || files.seen.ended !== undefined, 30_000, `SERVING again once storage is back: ${JSON.stringify(files.seen)}`);

      await sleep(HOLD_MS - (Date.now() - started));
      // Five minutes on, neither Watch has ended, and each said exactly what happened.
      expect(server.seen.ended, "the server's Watch ended").toBeUndefined();
      expect(files.seen.ended, "the service's Watch ended").toBeUndefined();
      expect(server.statuses()).toEqual(["SERVING", "NOT_SERVING", "SERVING"]);
      expect(files.statuses()).toEqual(["SERVING", "NOT_SERVING", "SERVING"]);
      expect(files.seen.answers[1]!.atMs).toBeGreaterThanOrEqual(HOLD_MS / 2 - 1000);
    } finally {
      for (const { call } of [server, files]) call.cancel();
    }
  });
});
