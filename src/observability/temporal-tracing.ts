/**
 * Temporal's OpenTelemetry interceptors, wired to a process's tracing: the client ones put the
 * active span into workflow start, Update and signal headers; the worker ones continue that trace
 * in the workflow (spans made inside the sandbox leave through a sink) and in its activities.
 */
import { createRequire } from "node:module";
import type { ClientInterceptors } from "@temporalio/client";
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from "@temporalio/interceptors-opentelemetry";
import type { WorkerOptions } from "@temporalio/worker";
import type { Tracing } from "./tracing.js";

const require = createRequire(import.meta.url);

export function temporalClientInterceptors(tracing: Tracing | undefined): ClientInterceptors | undefined {
  if (!tracing) return undefined;
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] };
}

/** Options to spread into Worker.create; none without tracing. */
export function temporalWorkerTracing(tracing: Tracing | undefined): Pick<WorkerOptions, "interceptors" | "sinks"> {
  if (!tracing) return {};
  const { tracer } = tracing;
  return {
    interceptors: {
      // Bundled into the workflow code; the SDK's bundler swaps the package's workflow-imports
      // stub for the real @temporalio/workflow APIs.
      workflowModules: [require.resolve("@temporalio/interceptors-opentelemetry/lib/workflow-interceptors.js")],
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }),
          // Adds trace_id and span_id to the activity's log lines.
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
