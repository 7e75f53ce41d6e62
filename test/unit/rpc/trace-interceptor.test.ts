import { Writable } from "node:stream";
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { pino } from "pino";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { AppError } from "../../../src/domain/errors.js";
import {
  ATTR_REQUEST_ID,
  ATTR_RPC_CONNECT_RPC_ERROR_CODE,
  ATTR_RPC_GRPC_STATUS_CODE,
  traceInterceptor,
} from "../../../src/rpc/interceptors/trace-interceptor.js";
import { withTraceIdSlot, type TraceIdSlot } from "../../../src/observability/trace-ids.js";
import { errorInterceptor } from "../../../src/rpc/interceptors/error-interceptor.js";
import { requestIdInterceptor } from "../../../src/rpc/interceptors/request-id-interceptor.js";

// Registered like startTracing does (context manager, W3C propagator), exporting to memory.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const logLines: Record<string, unknown>[] = [];
const logger = pino(
  { level: "info" },
  new Writable({
    write(chunk, _encoding, done) {
      logLines.push(JSON.parse(String(chunk)));
      done();
    },
  }),
);

/** GetUpload answers by object id: "missing" is the caller's error, "boom" the server's. */
const files = createClient(
  FileStorageService,
  createRouterTransport(
    (router) =>
      router.service(FileStorageService, {
        getUpload(req) {
          if (req.objectId === "missing") throw new AppError("OBJECT_NOT_FOUND", "upload not found");
          if (req.objectId === "boom") throw new Error("boom");
          return {};
        },
      }),
    {
      router: {
        interceptors: [traceInterceptor(provider.getTracer("test")), errorInterceptor(logger), requestIdInterceptor(() => "req-1")],
      },
    },
  ),
);

function onlySpan() {
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  return spans[0];
}

beforeEach(() => {
  exporter.reset();
  logLines.length = 0;
});

describe("traceInterceptor", () => {
  it("opens a server span named service/method with the RPC attributes and the request id", async () => {
    await files.getUpload({ objectId: "o-1" });
    const span = onlySpan();
    expect(span.name).toBe("filestorage.v1.FileStorageService/GetUpload");
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({
      "rpc.system": "connect_rpc",
      "rpc.service": "filestorage.v1.FileStorageService",
      "rpc.method": "GetUpload",
      [ATTR_RPC_GRPC_STATUS_CODE]: 0,
      [ATTR_REQUEST_ID]: "req-1",
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("continues the caller's trace from its traceparent header", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentId = "00f067aa0ba902b7";
    await files.getUpload({ objectId: "o-1" }, { headers: { traceparent: `00-${traceId}-${parentId}-01` } });
    const span = onlySpan();
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanId).toBe(parentId);
  });

  it("starts a new trace without a traceparent header", async () => {
    await files.getUpload({ objectId: "o-1" });
    expect(onlySpan().parentSpanId).toBeUndefined();
  });

  it("records a caller's error code but leaves the status unset (not_found)", async () => {
    await expect(files.getUpload({ objectId: "missing" })).rejects.toMatchObject({ code: Code.NotFound });
    const span = onlySpan();
    expect(span.attributes).toMatchObject({ [ATTR_RPC_CONNECT_RPC_ERROR_CODE]: "not_found", [ATTR_RPC_GRPC_STATUS_CODE]: Code.NotFound });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events).toHaveLength(0);
  });

  it("marks a server fault as an error with its exception (internal)", async () => {
    await expect(files.getUpload({ objectId: "boom" })).rejects.toBeInstanceOf(ConnectError);
    const span = onlySpan();
    expect(span.attributes).toMatchObject({ [ATTR_RPC_CONNECT_RPC_ERROR_CODE]: "internal", [ATTR_RPC_GRPC_STATUS_CODE]: Code.Internal });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.events.map((e) => e.name)).toEqual(["exception"]);
  });

  it("puts the span's trace id on the failed RPC's log line", async () => {
    await expect(files.getUpload({ objectId: "missing" })).rejects.toThrow();
    expect(logLines).toHaveLength(1);
    expect(logLines[0]).toMatchObject({ msg: "rpc refused", requestId: "req-1", traceId: onlySpan().spanContext().traceId });
  });

  it("notes its trace id in the enclosing slot, for the HTTP request log written after the span", async () => {
    const slot: TraceIdSlot = {};
    await withTraceIdSlot(slot, () => files.getUpload({ objectId: "o-1" }));
    expect(slot.traceId).toBe(onlySpan().spanContext().traceId);
  });
});
