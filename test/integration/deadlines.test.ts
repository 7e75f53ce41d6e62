/**
 * Deadlines honoured end to end, with the clients that met them ignored: `@grpc/grpc-js` with a
 * 1 ms deadline (its client reports DEADLINE_EXCEEDED on its own) and the Connect protocol with
 * `connect-timeout-ms: 1` over plain fetch (which reads whatever the server answers). An expired
 * InitiateUpload creates no object and is counted `deadline_exceeded`, never `ok`. A deadline that
 * passes while the insert waits on a lock cancels the insert (statement_timeout), so nothing
 * commits once the lock is released.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import type { Knex } from "@mikro-orm/postgresql";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { png } from "../fixtures/files/index.js";
import { apiUrl, tokenFor, uniqueTenant } from "../support/clients.js";
import { sleep, sql, withDb } from "../support/stack-access.js";

const CALLS = 20;
const root = process.cwd();
const metricsUrl = () => `http://127.0.0.1:${inject("stackEnv").METRICS_PORT}`;

type Callback = (error: grpc.ServiceError | null, response: unknown) => void;
type UnaryClient = grpc.Client & Record<string, (request: object, metadata: grpc.Metadata, options: grpc.CallOptions, callback: Callback) => void>;
let files: UnaryClient;

beforeAll(async () => {
  // npm test prepares them (lint:proto); a single file run may come first.
  if (!existsSync(path.join(root, ".proto-deps/google/rpc/status.proto"))) await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/proto-deps.ts"]);
  const definition = protoLoader.loadSync(["filestorage/v1/file_storage_service.proto"], {
    includeDirs: [path.join(root, "proto"), path.join(root, ".proto-deps")],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const loaded = grpc.loadPackageDefinition(definition) as any;
  files = new loaded.filestorage.v1.FileStorageService(new URL(apiUrl()).host, grpc.credentials.createInsecure());
});

/** rpc_requests_total of InitiateUpload, by code. */
async function initiateCounts(): Promise<Record<string, number>> {
  const res = await fetch(`${metricsUrl()}/metrics`);
  const counts: Record<string, number> = {};
  for (const line of (await res.text()).split("\n")) {
    if (!line.startsWith("rpc_requests_total{") || !line.includes('method="InitiateUpload"')) continue;
    const code = /code="([^"]+)"/.exec(line)![1];
    counts[code] = Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return counts;
}

const delta = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).flatMap(([code, n]) => (n - (before[code] ?? 0) > 0 ? [[code, n - (before[code] ?? 0)]] : [])));

/**
 * A grpc-js client stops waiting at its deadline, while the server may still be running the call:
 * wait until the server has counted every call it received (the counts stop moving).
 */
async function settledCounts(): Promise<Record<string, number>> {
  let last = JSON.stringify(await initiateCounts());
  for (;;) {
    await sleep(1000);
    const now = await initiateCounts();
    if (JSON.stringify(now) === last) return now;
    last = JSON.stringify(now);
  }
}

const request = (i: number) => ({
  objectClass: "GENERAL_DOCUMENT",
  ownerEntityType: "Account",
  ownerEntityId: `deadline-${i}`,
  originalFilename: `late-${i}.png`,
  contentType: "image/png",
  fileSize: String(png(2, 2).length),
});

/**
 * The caller's metadata, once the channel is connected: the calls that follow reach the server
 * instead of timing out while it connects.
 */
async function connectedMetadata(token: string): Promise<grpc.Metadata> {
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${token}`);
  const warm = await new Promise<grpc.ServiceError | null>((resolve) => files.getUpload({ objectId: "0190a6f4-0000-7000-8000-000000000000" }, metadata, {}, resolve));
  expect(warm?.code).toBe(grpc.status.NOT_FOUND);
  return metadata;
}

describe("deadlines", () => {
  it("an expired InitiateUpload answers DEADLINE_EXCEEDED on gRPC and Connect, creates nothing and is counted so", async () => {
    const tenant = uniqueTenant("deadline");
    const token = await tokenFor(tenant);
    const metadata = await connectedMetadata(token);
    const before = await settledCounts();

    const grpcCodes: string[] = [];
    for (let i = 0; i < CALLS; i++) {
      const code = await new Promise<grpc.status>((resolve) => files.initiateUpload(request(i), metadata, { deadline: Date.now() + 1 }, (error) => resolve(error ? error.code : grpc.status.OK)));
      grpcCodes.push(grpc.status[code]);
    }
    expect(grpcCodes).toEqual(Array(CALLS).fill("DEADLINE_EXCEEDED"));
    // Every call that reached the server (those its client sent before its deadline) counted so, none created.
    const afterGrpc = await settledCounts();
    expect(Object.keys(delta(before, afterGrpc))).toEqual(["deadline_exceeded"]);
    expect(await sql("select id from stored_objects where tenant_id = ?", [tenant])).toEqual([]);

    const connectAnswers: { status: number; code: unknown }[] = [];
    for (let i = CALLS; i < 2 * CALLS; i++) {
      const res = await fetch(`${apiUrl()}/filestorage.v1.FileStorageService/InitiateUpload`, {
        method: "POST",
        headers: { "content-type": "application/json", "connect-protocol-version": "1", "connect-timeout-ms": "1", authorization: `Bearer ${token}` },
        body: JSON.stringify(request(i)),
      });
      connectAnswers.push({ status: res.status, code: ((await res.json()) as { code?: unknown }).code });
    }
    expect(connectAnswers).toEqual(Array(CALLS).fill({ status: 504, code: "deadline_exceeded" }));
    expect(delta(afterGrpc, await settledCounts())).toEqual({ deadline_exceeded: CALLS });
    expect(await sql("select id from stored_objects where tenant_id = ?", [tenant])).toEqual([]);
  });

  it("a deadline that passes while the insert waits on a lock cancels it: DEADLINE_EXCEEDED at the deadline, counted so, nothing committed after the lock goes", async () => {
    const tenant = uniqueTenant("deadline-lock");
    const token = await tokenFor(tenant);
    const metadata = await connectedMetadata(token);
    const before = await settledCounts();

    const DEADLINE_MS = 2000;
    const HOLD_MS = 5000;
    const answers = await withDb(async (orm) => {
      // The insert of initiate waits for this transaction's lock (its quota read does not: ACCESS
      // SHARE does not conflict with EXCLUSIVE), past the calls' deadline.
      const blocker: Knex.Transaction = await orm.em.getConnection().getKnex().transaction();
      try {
        await blocker.raw("lock table stored_objects in exclusive mode");
        const held = Date.now();
        const grpcCall = new Promise<{ code: string }>((resolve) => {
          files.initiateUpload(request(1000), metadata, { deadline: Date.now() + DEADLINE_MS }, (error) =>
            resolve({ code: grpc.status[error ? error.code : grpc.status.OK] }),
          );
        });
        // The Connect protocol reads the server's own answer (gRPC's client may end the call itself).
        const connectCall = (async () => {
          const res = await fetch(`${apiUrl()}/filestorage.v1.FileStorageService/InitiateUpload`, {
            method: "POST",
            headers: { "content-type": "application/json", "connect-protocol-version": "1", "connect-timeout-ms": String(DEADLINE_MS), authorization: `Bearer ${token}` },
            body: JSON.stringify(request(1001)),
          });
          return { status: res.status, code: ((await res.json()) as { code?: unknown }).code };
        })();
        const [grpcAnswer, connectAnswer] = await Promise.all([grpcCall, connectCall]);
        // Released well after the deadline: an insert still waiting would commit now.
        await sleep(Math.max(0, HOLD_MS - (Date.now() - held)));
        return { grpcAnswer, connectAnswer };
      } finally {
        await blocker.rollback();
      }
    });

    expect(answers.grpcAnswer.code).toBe("DEADLINE_EXCEEDED");
    // The server's own answer, and the statement cancelled: nothing was committed once the lock went.
    expect(answers.connectAnswer).toEqual({ status: 504, code: "deadline_exceeded" });
    expect(delta(before, await settledCounts())).toEqual({ deadline_exceeded: 2 });
    expect(await sql("select id from stored_objects where tenant_id = ?", [tenant])).toEqual([]);
    expect(await sql("select id from upload_sessions where tenant_id = ?", [tenant])).toEqual([]);
  });
});
