import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
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
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    },
    list: async () => ({ statuses: {} }),
  });
}
