/**
 * Traces across the process boundary: an API server and a worker of their own, started with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver in this test, on the suite's
 * PostgreSQL, MinIO and Temporal (the shared processes run without tracing).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findFreePort } from "../../src/stack/free-port.js";
import { csv } from "../fixtures/files/index.js";
import { tokenFor, uniqueTenant } from "../support/clients.js";
import { ProcessSupervisor } from "../support/process-supervisor.js";
import { put } from "../support/uploads.js";

interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

type OtlpValue = { stringValue?: string };
interface OtlpTraces {
  resourceSpans: {
    resource: { attributes: { key: string; value: OtlpValue }[] };
    scopeSpans: { spans: { name: string; traceId: string; spanId: string; parentSpanId?: string }[] }[];
  }[];
}

/** An OTLP/HTTP collector reduced to what the test reads: POST /v1/traces with JSON bodies. */
async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      contentTypes.add(String(req.headers["content-type"]));
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpTraces;
      for (const { resource, scopeSpans } of body.resourceSpans) {
        const service = resource.attributes.find((a) => a.key === "service.name")?.value.stringValue ?? "";
        for (const span of scopeSpans.flatMap((s) => s.spans)) {
          spans.push({ service, name: span.name, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined });
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const FILES = "filestorage.v1.FileStorageService";

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let supervisor: ProcessSupervisor;
let logDir: string;
let baseUrl: string;

async function post(urlPath: string, token: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${baseUrl}${urlPath}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The spans of one trace, once every name in `expected` arrived (the exporters batch). */
async function traceWith(traceId: string, expected: string[], timeoutMs = 30_000): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    if (expected.every((name) => spans.some((s) => s.name === name)) || Date.now() > deadline) return spans;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function byName(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((s) => s.name === name);
  expect(found, `${name} in ${JSON.stringify(spans.map((s) => s.name))}`).toHaveLength(1);
  return found[0];
}

// One upload through the traced pair: initiate in the caller's trace A, complete in trace B.
const initiateTrace = { traceId: hex(16), parentId: hex(8) };
const completeTrace = { traceId: hex(16), parentId: hex(8) };
const initiateRequestId = `trace-test-${hex(4)}`;
// And a GetUpload over the Connect protocol, not through the REST transcoder.
const connectTrace = { traceId: hex(16), parentId: hex(8) };
const connectRequestId = `trace-test-${hex(4)}`;

describe("OpenTelemetry tracing with OTEL_EXPORTER_OTLP_ENDPOINT set", () => {
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const port = await findFreePort();
    baseUrl = `http://127.0.0.1:${port}`;
    logDir = mkdtempSync(path.join(os.tmpdir(), "tracing-test-"));
    supervisor = new ProcessSupervisor(
      process.cwd(),
      {
        ...inject("stackEnv"),
        PORT: String(port),
        METRICS_PORT: "0",
        TEMPORAL_TASK_QUEUE: `trace-${process.pid}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: "200",
        WORKER_SCHEDULES: "false",
      },
      logDir,
    );
    await supervisor.startApi();
    await supervisor.startWorker();

    const token = await tokenFor(uniqueTenant("trace"));
    // A CSV: its scan is the streaming activity (an image would be scanned inside complete).
    const bytes = csv([["a", "b"], ["1", "2"]]);
    const started = await post(
      "/api/v1/uploads/initiate",
      token,
      { objectClass: "IMPORT_FILE", ownerEntityType: "User", ownerEntityId: "u1", originalFilename: "data.csv", contentType: "text/csv", fileSize: bytes.length },
      { traceparent: `00-${initiateTrace.traceId}-${initiateTrace.parentId}-01`, "x-request-id": initiateRequestId },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((await put(started.body, bytes)).status).toBe(200);
    const done = await post(`/api/v1/uploads/${started.body.storedObject.id}/complete`, token, { waitForResult: true }, {
      traceparent: `00-${completeTrace.traceId}-${completeTrace.parentId}-01`,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.storedObject.status).toBe("READY");
    const got = await post(`/${FILES}/GetUpload`, token, { objectId: started.body.storedObject.id }, {
      traceparent: `00-${connectTrace.traceId}-${connectTrace.parentId}-01`,
      "x-request-id": connectRequestId,
    });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
  }, 240_000);

  afterAll(async () => {
    await supervisor?.stopAll();
    await receiver?.close();
    if (logDir && !process.env.TEST_KEEP_DATA) rmSync(logDir, { recursive: true, force: true });
  }, 240_000);

  it("follows initiate from the caller's traceparent through the workflow start into the workflow and the scan activity", async () => {
    const spans = await traceWith(initiateTrace.traceId, [
      `${FILES}/InitiateUpload`,
      "StartWorkflow:objectLifecycle",
      "RunWorkflow:objectLifecycle",
      "StartActivity:scanObject",
      "RunActivity:scanObject",
    ]);
    const rpc = byName(spans, `${FILES}/InitiateUpload`);
    const start = byName(spans, "StartWorkflow:objectLifecycle");
    const run = byName(spans, "RunWorkflow:objectLifecycle");
    const schedule = byName(spans, "StartActivity:scanObject");
    const activity = byName(spans, "RunActivity:scanObject");
    expect(rpc).toMatchObject({ service: "files-and-fields-api", parentSpanId: initiateTrace.parentId });
    expect(start).toMatchObject({ service: "files-and-fields-api", parentSpanId: rpc.spanId });
    // Across processes, through the workflow's Temporal headers.
    expect(run).toMatchObject({ service: "files-and-fields-worker", parentSpanId: start.spanId });
    expect(schedule).toMatchObject({ service: "files-and-fields-worker", parentSpanId: run.spanId });
    expect(activity).toMatchObject({ service: "files-and-fields-worker", parentSpanId: schedule.spanId });
  });

  it("follows complete through the Update into its handler and the verifyAndComplete local activity", async () => {
    const spans = await traceWith(completeTrace.traceId, [
      `${FILES}/CompleteUpload`,
      "UpdateWithStartWorkflow:complete",
      "HandleUpdate:complete",
      "RunActivity:verifyAndComplete",
    ]);
    const rpc = byName(spans, `${FILES}/CompleteUpload`);
    const update = byName(spans, "UpdateWithStartWorkflow:complete");
    const handler = byName(spans, "HandleUpdate:complete");
    const activity = byName(spans, "RunActivity:verifyAndComplete");
    expect(rpc.parentSpanId).toBe(completeTrace.parentId);
    expect(update).toMatchObject({ service: "files-and-fields-api", parentSpanId: rpc.spanId });
    expect(handler).toMatchObject({ service: "files-and-fields-worker", parentSpanId: update.spanId });
    expect(spans.find((s) => s.spanId === activity.parentSpanId)).toMatchObject({ name: "StartActivity:verifyAndComplete", parentSpanId: handler.spanId });
  });

  it("puts the trace id on the API's request log line next to the request id, for REST and Connect calls", () => {
    const lines = readFileSync(path.join(logDir, "api.log"), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const request = (requestId: string) => lines.find((l) => l.msg === "request" && l.requestId === requestId);
    expect(request(initiateRequestId)).toMatchObject({ path: "/api/v1/uploads/initiate", status: 200, traceId: initiateTrace.traceId });
    expect(request(connectRequestId)).toMatchObject({ path: `/${FILES}/GetUpload`, status: 200, traceId: connectTrace.traceId });
  });

  it("exports JSON over OTLP/HTTP, from the API and the worker as separate services", () => {
    expect([...receiver.contentTypes]).toEqual(["application/json"]);
    expect(new Set(receiver.spans.map((s) => s.service))).toEqual(new Set(["files-and-fields-api", "files-and-fields-worker"]));
  });
});
