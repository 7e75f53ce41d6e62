/**
 * Trace ids for log lines. Both helpers go through the OpenTelemetry context API, so without
 * tracing started (no context manager registered) they do nothing and log lines stay as they were.
 */
import { context, createContextKey, trace } from "@opentelemetry/api";

/** The trace id of the span active here, if any. */
export function activeTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}

/**
 * Filled by the RPC span started somewhere below (src/rpc/interceptors/trace-interceptor.ts), for
 * a log line written above it: the HTTP request log is written outside the span, after it ended.
 */
export interface TraceIdSlot {
  traceId?: string;
}

const TRACE_ID_SLOT = createContextKey("files-and-fields trace id slot");

export function withTraceIdSlot<T>(slot: TraceIdSlot, work: () => T): T {
  return context.with(context.active().setValue(TRACE_ID_SLOT, slot), work);
}

/** Tells the enclosing slot, if there is one and it is still empty, which trace served it. */
export function noteTraceId(traceId: string): void {
  const slot = context.active().getValue(TRACE_ID_SLOT) as TraceIdSlot | undefined;
  if (slot) slot.traceId ??= traceId;
}
