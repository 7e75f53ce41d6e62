/**
 * A server span per RPC, on every transport (the REST transcoder's in-process calls included:
 * it forwards `traceparent`). The span is active while the handler runs, so the Temporal client
 * calls a handler makes (OpenTelemetryWorkflowClientInterceptor) become its children and carry
 * the trace into the workflow and its activities.
 */
import { context, propagation, SpanKind, SpanStatusCode, type Attributes, type Tracer } from "@opentelemetry/api";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { noteTraceId } from "../../observability/trace-ids.js";
import { requestIdKey } from "../principal.js";

// The RPC semantic conventions are still incubating; OpenTelemetry advises copying their names
// rather than importing them from the unstable entry point.
const ATTR_RPC_SYSTEM = "rpc.system";
const ATTR_RPC_SERVICE = "rpc.service";
const ATTR_RPC_METHOD = "rpc.method";
export const ATTR_RPC_GRPC_STATUS_CODE = "rpc.grpc.status_code";
export const ATTR_RPC_CONNECT_RPC_ERROR_CODE = "rpc.connect_rpc.error_code";
/** Not a semantic convention: the id our JSON logs carry, to go from a trace to its log lines. */
export const ATTR_REQUEST_ID = "app.request_id";

/**
 * Codes that are the server's fault. As the RPC conventions say for server spans, the others
 * (not found, invalid argument, permission denied, ...) are the caller's and leave the status
 * unset; their code is still recorded.
 */
const SERVER_FAULTS = new Set([Code.Unknown, Code.DeadlineExceeded, Code.Unimplemented, Code.Internal, Code.Unavailable, Code.DataLoss]);

const headerGetter = {
  keys: (carrier: Headers) => [...carrier.keys()],
  get: (carrier: Headers, key: string) => carrier.get(key) ?? undefined,
};

function rpcSystem(contentType: string | null): string {
  return contentType?.startsWith("application/grpc") ? "grpc" : "connect_rpc";
}

/** Put it first, outside the error interceptor, so it sees the code the caller receives. */
export function traceInterceptor(tracer: Tracer): Interceptor {
  return (next) => async (req) => {
    const service = req.service.typeName;
    const method = req.method.name;
    const attributes: Attributes = {
      [ATTR_RPC_SYSTEM]: rpcSystem(req.header.get("content-type")),
      [ATTR_RPC_SERVICE]: service,
      [ATTR_RPC_METHOD]: method,
    };
    const parent = propagation.extract(context.active(), req.header, headerGetter);
    return tracer.startActiveSpan(`${service}/${method}`, { kind: SpanKind.SERVER, attributes }, parent, async (span) => {
      noteTraceId(span.spanContext().traceId);
      let code = 0; // gRPC's OK; Connect's Code enum has no member for success
      try {
        // A streaming response (health Watch) outlives this call: its span covers the call's start only.
        return await next(req);
      } catch (error) {
        const connectError = ConnectError.from(error);
        code = connectError.code;
        span.setAttribute(ATTR_RPC_CONNECT_RPC_ERROR_CODE, codeToString(code));
        if (SERVER_FAULTS.has(code)) {
          span.recordException(connectError);
          span.setStatus({ code: SpanStatusCode.ERROR, message: connectError.rawMessage });
        }
        throw error;
      } finally {
        // Connect's codes are gRPC's numbers, so every transport records this one too.
        span.setAttribute(ATTR_RPC_GRPC_STATUS_CODE, code);
        const requestId = req.contextValues.get(requestIdKey);
        if (requestId) span.setAttribute(ATTR_REQUEST_ID, requestId);
        span.end();
      }
    });
  };
}
