import type { ServerResponse } from "node:http";
import type { Registry } from "prom-client";
import type { RequestHandler } from "./http-server.js";

/** GET /metrics: the registry in Prometheus' text format. */
export function metricsPage(registry: Registry): RequestHandler {
  return async (req, raw) => {
    const res = raw as ServerResponse;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" });
      res.end("method not allowed\n");
      return;
    }
    const body = await registry.metrics();
    res.writeHead(200, { "content-type": registry.contentType });
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
