import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import type { RpcMeters } from "../../observability/metrics.js";

/** Put it first, outside the error interceptor, so it sees the code the caller receives. */
export function metricsInterceptor(meters: RpcMeters): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const record = (code: string) => {
      const labels = { service: req.service.typeName, method: req.method.name, code };
      meters.requests.inc(labels);
      meters.durations.observe(labels, (performance.now() - started) / 1000);
    };
    try {
      const res = await next(req);
      record("ok");
      return res;
    } catch (error) {
      record(codeToString(error instanceof ConnectError ? error.code : Code.Unknown));
      throw error;
    }
  };
}
