/**
 * OpenTelemetry tracing of one process, exported over OTLP/HTTP (JSON) when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. Nothing happens at import time: the provider becomes the
 * global one (with the AsyncLocalStorage context manager and the W3C trace-context propagator)
 * when `startTracing` is called, once per process.
 *
 * The SDK is the 1.x line on purpose: @temporalio/interceptors-opentelemetry 1.24 depends on
 * sdk-trace-base 1.x and hands the exporter workflow spans in the 1.x ReadableSpan shape
 * (`parentSpanId`, `instrumentationLibrary`), which a 2.x exporter would drop.
 */
import type { Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { Resource } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";

export interface TracingOptions {
  serviceName: string;
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `${endpoint}/v1/traces`. */
  endpoint?: string;
}

export interface Tracing {
  tracer: Tracer;
  /** For the Temporal worker: its workflow span sink feeds the same processor. */
  resource: Resource;
  spanProcessor: SpanProcessor;
  /** Flushes the spans still batched, then stops exporting. */
  shutdown(): Promise<void>;
}

/** The process's tracing, or undefined when no endpoint is configured. */
export function startTracing(options: TracingOptions): Tracing | undefined {
  if (!options.endpoint) return undefined;
  const resource = new Resource({ [ATTR_SERVICE_NAME]: options.serviceName });
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/(?<!\/)\/+$/, "")}/v1/traces` });
  const spanProcessor = new BatchSpanProcessor(exporter);
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return {
    tracer: provider.getTracer(options.serviceName),
    resource: provider.resource,
    spanProcessor,
    shutdown: () => provider.shutdown(),
  };
}
