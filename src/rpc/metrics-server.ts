/**
 * The operational listener (METRICS_HOST:METRICS_PORT, loopback by default), apart from the API's
 * public port: GET /metrics counts every tenant's data (audit_entries{tenant}) and GET /readyz here
 * gives each dependency's error, which names internal hosts. The public /readyz says only
 * ready or not (http-server.ts).
 */
import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { Readiness } from "../app/readiness.js";
import type { RequestHandler } from "./http-server.js";
import { metricsPage } from "./metrics-page.js";

export interface MetricsServerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  registry: Registry;
  readiness: Readiness;
  logger: Logger;
}

export interface RunningMetricsServer {
  address: AddressInfo;
  close(): Promise<void>;
}

function readinessDetails(readiness: Readiness): RequestHandler {
  return async (_req, raw) => {
    const report = await readiness.check();
    (raw as ServerResponse).writeHead(report.ready ? 200 : 503, { "content-type": "application/json" });
    raw.end(JSON.stringify(report));
  };
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<RunningMetricsServer> {
  const pages: Record<string, RequestHandler> = { "/metrics": metricsPage(options.registry), "/readyz": readinessDetails(options.readiness) };
  const server = http.createServer((req, res) => {
    const page = pages[(req.url ?? "/").split("?")[0]!];
    if (!page) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    Promise.resolve(page(req, res)).catch((error: unknown) => {
      options.logger.error({ err: error, path: req.url }, "metrics listener: unhandled error");
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
