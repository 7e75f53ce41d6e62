import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import {
  Health,
  HealthCheckResponse_ServingStatus as ServingStatus,
  HealthCheckResponseSchema,
} from "../../gen/grpc/health/v1/health_pb.js";
import type { Readiness } from "../app/readiness.js";

/** The standard grpc.health.v1 service: SERVING when every dependency answers. */
export function registerHealthService(router: ConnectRouter, readiness: Readiness): void {
  const statusNow = async () => {
    const report = await readiness.check();
    return create(HealthCheckResponseSchema, {
      status: report.ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING,
    });
  };
  router.service(Health, {
    check: () => statusNow(),
    async *watch(_req, ctx) {
      yield await statusNow();
      // The signal may have aborted while readiness answered: its event has fired already then.
      if (!ctx.signal.aborted) await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      // Only the call's signal ends a Watch: its deadline (the reason is a DEADLINE_EXCEEDED
      // ConnectError), the client going away or shutdown. Returning would end it with OK.
      throw ConnectError.from(ctx.signal.reason, Code.Canceled);
    },
    list: async () => ({ statuses: {} }),
  });
}
