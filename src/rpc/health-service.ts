import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import {
  Health,
  HealthCheckResponse_ServingStatus as ServingStatus,
  HealthCheckResponseSchema,
} from "@files-and-fields/client/gen/grpc/health/v1/health_pb.js";
import type { Readiness } from "../app/readiness.js";

/**
 * How often a Watch asks readiness again. The same as the readiness cache's age (one second):
 * watchers share its one check, so more of them cost the dependencies nothing more.
 */
const WATCH_INTERVAL_MS = 1000;

/** Resolves once `ms` passed or the signal aborted, whichever comes first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * The standard grpc.health.v1 service. The empty name stands for the server, and each service
 * the router mounts (read from the router when asked, so a service added to it needs no list
 * here) is SERVING when every dependency answers; any other name is unknown: NOT_FOUND for
 * Check, SERVICE_UNKNOWN for Watch, as the health protocol says.
 */
export function registerHealthService(router: ConnectRouter, readiness: Readiness): void {
  const known = (service: string) => service === "" || router.handlers.some((handler) => handler.service.typeName === service);
  const statusNow = async () => ((await readiness.check()).ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
  const answer = (status: ServingStatus) => create(HealthCheckResponseSchema, { status });
  router.service(Health, {
    async check(req) {
      if (!known(req.service)) throw new ConnectError(`unknown service ${req.service}`, Code.NotFound);
      return answer(await statusNow());
    },
    async *watch(req, ctx) {
      // A Watch answers at once and then each change, until the call ends: its deadline (the
      // reason is a DEADLINE_EXCEEDED ConnectError), the client going away or shutdown.
      let last: ServingStatus | undefined;
      while (!ctx.signal.aborted) {
        const status = known(req.service) ? await statusNow() : ServingStatus.SERVICE_UNKNOWN;
        if (status !== last && !ctx.signal.aborted) yield answer(status);
        last = status;
        await pause(WATCH_INTERVAL_MS, ctx.signal);
      }
      // Returning would end the call with OK.
      throw ConnectError.from(ctx.signal.reason, Code.Canceled);
    },
    async list() {
      const status = await statusNow();
      const services = ["", ...new Set(router.handlers.map((handler) => handler.service.typeName))];
      return { statuses: Object.fromEntries(services.map((service) => [service, answer(status)])) };
    },
  });
}
