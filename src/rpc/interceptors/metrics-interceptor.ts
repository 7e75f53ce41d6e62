import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import type { RpcMeters } from "../../observability/metrics.js";
import { quotaOfReason, type QuotaName } from "../../domain/quotas.js";
import { ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { watchStream, type StreamEnd } from "./response-stream.js";

/**
 * Put it first, outside the error interceptor, so it sees the code the caller receives. A server
 * stream is counted when it ends, with the code it ended with.
 */
export function metricsInterceptor(meters: RpcMeters): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const record = (code: string) => {
      const labels = { service: req.service.typeName, method: req.method.name, code };
      meters.requests.inc(labels);
      meters.durations.observe(labels, (performance.now() - started) / 1000);
    };
    const failed = (error: unknown) => {
      record(codeToString(error instanceof ConnectError ? error.code : Code.Unknown));
      const quota = error instanceof ConnectError ? refusedQuota(error) : undefined;
      if (quota) meters.quotaRefusals.inc({ quota });
    };
    try {
      const res = await next(req);
      if (res.stream) return watchStream(res, { onEnd: (end) => (end.kind === "failed" ? failed(end.error) : record(codeOfEnd(end))) });
      record("ok");
      return res;
    } catch (error) {
      failed(error);
      throw error;
    }
  };
}

/** A stream its reader stopped reading (the client went away) did not end OK. */
function codeOfEnd(end: Exclude<StreamEnd, { kind: "failed" }>): string {
  return end.kind === "done" ? "ok" : codeToString(Code.Canceled);
}

/** The quota a refusal names in its ErrorInfo reason (the error interceptor put it there). */
function refusedQuota(error: ConnectError): QuotaName | undefined {
  if (error.code !== Code.ResourceExhausted) return undefined;
  const [info] = error.findDetails(ErrorInfoSchema);
  return info ? quotaOfReason(info.reason) : undefined;
}
