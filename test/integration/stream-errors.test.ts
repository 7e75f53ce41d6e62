/**
 * An error inside a server-streaming handler gets what a unary call's error gets: its code and
 * ErrorInfo (not INTERNAL), a log line, and the metrics counter with its code (not `ok`). The
 * audit export with a filter the search refuses, over Connect (fetch), gRPC (grpc-js) and REST.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { apiUrl, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { reasonOf, violationsOf } from "../support/errors.js";
import { sleep } from "../support/stack-access.js";

const root = process.cwd();
const protoDeps = path.join(root, ".proto-deps");
const SERVICE = "filestorage.v1.AuditService";
/** Refused by SearchAuditEntries: an owner type without its id. */
const OWNER_TYPE_ONLY = { ownerType: "User" };

type StreamClient = grpc.Client & Record<string, (request: object, metadata: grpc.Metadata) => grpc.ClientReadableStream<unknown>>;
type UnaryClient = grpc.Client & Record<string, (request: object, metadata: grpc.Metadata, callback: (error: grpc.ServiceError | null) => void) => void>;

let audit: StreamClient & UnaryClient;
let details: protobuf.Root;

beforeAll(() => {
  const definition = protoLoader.loadSync(["filestorage/v1/audit_service.proto"], { includeDirs: [path.join(root, "proto"), protoDeps], longs: String, enums: String });
  const loaded = grpc.loadPackageDefinition(definition) as any;
  audit = new loaded.filestorage.v1.AuditService(new URL(apiUrl()).host, grpc.credentials.createInsecure());
  details = protobuf.loadSync(["google/rpc/status.proto", "google/rpc/error_details.proto"].map((f) => path.join(protoDeps, f)));
});

const newRequestId = () => `stream-err-${Math.random().toString(36).slice(2, 10)}`;

async function metadataFor(requestId: string): Promise<grpc.Metadata> {
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${await tokenFor(uniqueTenant())}`);
  metadata.set("x-request-id", requestId);
  return metadata;
}

/** The status a grpc-js server stream ended with, and the reason of its ErrorInfo. */
function grpcStreamEnd(filter: object, metadata: grpc.Metadata): Promise<{ code: string; reason?: string }> {
  return new Promise((resolve) => {
    const stream = audit.exportAuditEntries({ filter }, metadata);
    stream.on("data", () => undefined);
    stream.on("error", () => undefined);
    stream.once("status", (status: grpc.StatusObject) => {
      const [raw] = status.metadata.get("grpc-status-details-bin") as Buffer[];
      const decoded = raw ? (details.lookupType("google.rpc.Status").decode(raw) as unknown as { details: { type_url: string; value: Uint8Array }[] }) : undefined;
      const info = decoded?.details.find((d) => d.type_url.endsWith("google.rpc.ErrorInfo"));
      const reason = info ? (details.lookupType("google.rpc.ErrorInfo").decode(info.value) as unknown as { reason: string }).reason : undefined;
      resolve({ code: grpc.status[status.code], reason });
    });
  });
}

function grpcUnary(method: string, request: object, metadata: grpc.Metadata): Promise<string> {
  return new Promise((resolve) => audit[method](request, metadata, (error: grpc.ServiceError | null) => resolve(error ? grpc.status[error.code] : "OK")));
}

/** A Connect streaming call through fetch: one enveloped JSON request, the end-of-stream message's error. */
async function connectStream(requestId: string, body: object): Promise<{ status: number; error?: { code: string; details?: { type: string; value: string }[] } }> {
  const json = Buffer.from(JSON.stringify(body));
  const envelope = Buffer.alloc(5 + json.length);
  envelope.writeUInt32BE(json.length, 1);
  json.copy(envelope, 5);
  const res = await fetch(`${apiUrl()}/${SERVICE}/ExportAuditEntries`, {
    method: "POST",
    headers: { "content-type": "application/connect+json", authorization: `Bearer ${await tokenFor(uniqueTenant())}`, "x-request-id": requestId },
    body: envelope,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  let end: { error?: { code: string } } = {};
  for (let at = 0; at + 5 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at + 1);
    // Flag 0x02 marks the end-of-stream message, which carries the error, if any.
    if (bytes[at] & 0x02) end = JSON.parse(bytes.subarray(at + 5, at + 5 + length).toString("utf8"));
    at += 5 + length;
  }
  return { status: res.status, ...end } as never;
}

/** The API's log lines (JSON) of one request id. */
async function logLinesOf(requestId: string): Promise<Record<string, unknown>[]> {
  const file = path.join(inject("logDir"), "api.log");
  for (let attempt = 0; ; attempt++) {
    const lines = readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes(requestId))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // pino writes asynchronously: the line may land a moment after the answer.
    if (lines.some((line) => line.msg === "rpc refused" || line.msg === "rpc failed") || attempt >= 50) return lines;
    await sleep(100);
  }
}

async function exportCount(code: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${inject("stackEnv").METRICS_PORT}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith("rpc_requests_total{") && l.includes(`service="${SERVICE}"`) && l.includes('method="ExportAuditEntries"') && l.includes(`code="${code}"`));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

describe("an error inside a server stream is mapped, logged and counted as a unary error is", () => {
  it("ExportAuditEntries with the filter SearchAuditEntries refuses: INVALID_ARGUMENT with ErrorInfo on Connect, gRPC and REST", async () => {
    const before = { invalid: await exportCount("invalid_argument"), ok: await exportCount("ok"), internal: await exportCount("internal") };
    const ids = { connect: newRequestId(), grpc: newRequestId(), rest: newRequestId() };

    const connect = await connectStream(ids.connect, { filter: OWNER_TYPE_ONLY });
    expect(connect.error?.code).toBe("invalid_argument");
    expect(reasonOf(connect.error)).toBe("VALIDATION_FAILED");
    expect(violationsOf(connect.error)).toEqual(["filter.ownerType"]);

    const overGrpc = await grpcStreamEnd(OWNER_TYPE_ONLY, await metadataFor(ids.grpc));
    expect(overGrpc).toEqual({ code: "INVALID_ARGUMENT", reason: "VALIDATION_FAILED" });
    // The unary search says the same of the same filter.
    expect(await grpcUnary("searchAuditEntries", { filter: OWNER_TYPE_ONLY }, await metadataFor(newRequestId()))).toBe("INVALID_ARGUMENT");

    const overRest = await rest("GET", "/api/v1/audit-entries:export?filter.ownerType=User", { token: await tokenFor(uniqueTenant()), headers: { "x-request-id": ids.rest } });
    expect(overRest.status).toBe(400);
    expect(overRest.body.code).toBe("invalid_argument");
    expect(reasonOf(overRest.body)).toBe("VALIDATION_FAILED");

    for (const [protocol, requestId] of Object.entries(ids)) {
      const refused = (await logLinesOf(requestId)).find((line) => line.msg === "rpc refused");
      expect(refused, `${protocol}: the "rpc refused" log line`).toMatchObject({ requestId, rpc: "ExportAuditEntries", code: 3 });
    }
    // REST reaches the same router in process: three calls, three counted invalid_argument.
    expect(await exportCount("invalid_argument")).toBe(before.invalid + 3);
    expect(await exportCount("ok")).toBe(before.ok);
    expect(await exportCount("internal")).toBe(before.internal);
  });

  it("a filter time outside the years 1-9999 (a gRPC client can send any seconds) is INVALID_ARGUMENT for the export and the search", async () => {
    const outOfRange = { occurredAfter: { seconds: "9000000000000", nanos: 0 } };
    expect(await grpcStreamEnd(outOfRange, await metadataFor(newRequestId()))).toEqual({ code: "INVALID_ARGUMENT", reason: "VALIDATION_FAILED" });
    expect(await grpcUnary("searchAuditEntries", { filter: outOfRange }, await metadataFor(newRequestId()))).toBe("INVALID_ARGUMENT");
    // Year 10000: a valid JavaScript date that a Timestamp cannot hold.
    const year10000 = { occurredBefore: { seconds: "253402300800", nanos: 0 } };
    expect(await grpcStreamEnd(year10000, await metadataFor(newRequestId()))).toEqual({ code: "INVALID_ARGUMENT", reason: "VALIDATION_FAILED" });
  });
});
