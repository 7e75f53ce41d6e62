import http, { type IncomingMessage, ServerResponse } from "node:http";
import http2, { type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from "node:http2";
import net, { type AddressInfo, type Socket } from "node:net";
import type { Logger } from "pino";
import type { Readiness } from "../app/readiness.js";
import type { HttpLimitsConfig } from "../config/http-limits.js";
import { withTraceIdSlot, type TraceIdSlot } from "../observability/trace-ids.js";
import { lingerOnUnreadBody } from "./unread-body.js";
import { closeIfSilent, enforceHttp1Limits, enforceHttp2Limits, http1Options, http2Options } from "./connection-limits.js";

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;
export type RequestHandler = (req: Req, res: Res) => void | Promise<void>;

export interface HttpServerOptions {
  host: string;
  port: number;
  logger: Logger;
  readiness: Readiness;
  newRequestId(): string;
  /** Exact paths served before anything else (e.g. /api/v1/openapi.json). */
  pages?: Record<string, RequestHandler>;
  restPrefix: string;
  rest: RequestHandler;
  connect: RequestHandler;
  limits: HttpLimitsConfig;
}

export interface RunningHttpServer {
  address: AddressInfo;
  /** Stops accepting, lets in-flight calls finish (up to graceMs), then closes every connection. */
  close(graceMs: number): Promise<void>;
}

const HTTP2_PREFACE_START = "PRI ";
const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** Routine liveness/readiness probes: the HTTP ones and gRPC health's Check. */
const PROBES = new Set(["/healthz", "/readyz", "/grpc.health.v1.Health/Check"]);

function writeJson(res: Res, status: number, body: unknown): void {
  (res as ServerResponse).writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/**
 * Ready or not, and nothing more: anyone can ask this port, and the dependencies' errors name
 * internal hosts. They go to the log here, and in full to the metrics listener's /readyz.
 */
async function answerReadiness(options: HttpServerOptions, requestId: string, res: Res): Promise<void> {
  const report = await options.readiness.check();
  if (!report.ready) options.logger.warn({ requestId, dependencies: report.dependencies }, "not ready");
  writeJson(res, report.ready ? 200 : 503, { status: report.ready ? "ready" : "not ready" });
}

/** Calls in flight; once draining, their responses close their connections (no keep-alive). */
interface InFlight {
  count: number;
  draining: boolean;
  responses: Set<Res>;
}

/** A client must not pool a connection to a process that is going away. */
function closeAfterResponse(res: Res): void {
  if (res instanceof ServerResponse && !res.headersSent) res.shouldKeepAlive = false;
}

function dispatcher(options: HttpServerOptions, inFlight: InFlight): RequestHandler {
  const { logger, restPrefix } = options;
  return async (req, res) => {
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : options.newRequestId();
    req.headers["x-request-id"] = requestId;
    res.setHeader("x-request-id", requestId);
    const started = performance.now();
    const path = (req.url ?? "/").split("?")[0];
    const trace: TraceIdSlot = {};
    inFlight.count++;
    inFlight.responses.add(res);
    if (inFlight.draining) closeAfterResponse(res);
    lingerOnUnreadBody(req, res, options.limits.unreadBodyLingerSeconds * 1000);
    res.once("close", () => {
      inFlight.count--;
      inFlight.responses.delete(res);
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const line = { requestId, traceId: trace.traceId, method: req.method, path: req.url, status: res.statusCode, durationMs };
      // Probes run every few seconds: at info they would bury every other line.
      if (PROBES.has(path)) logger.debug(line, "request");
      else logger.info(line, "request");
    });
    try {
      if (path === "/healthz") return writeJson(res, 200, { status: "ok" });
      if (path === "/readyz") return await answerReadiness(options, requestId, res);
      const page = options.pages?.[path];
      if (page) return await page(req, res);
      // The RPC's span starts below and ends before this request's log line: it notes its trace id here.
      if (path === restPrefix || path.startsWith(`${restPrefix}/`)) return await withTraceIdSlot(trace, () => options.rest(req, res));
      return await withTraceIdSlot(trace, () => options.connect(req, res));
    } catch (error) {
      logger.error({ requestId, err: error }, "unhandled error");
      if (!res.headersSent) writeJson(res, 500, { code: "internal", message: "internal error" });
      else res.end();
    }
  };
}

/**
 * One port for everything: HTTP/2 prior-knowledge connections (gRPC over h2c) go to an HTTP/2
 * server, everything else (REST, Connect, gRPC-Web from browsers) to an HTTP/1.1 server. The
 * first bytes of a connection tell which: only HTTP/2 starts with the "PRI *" preface.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const inFlight: InFlight = { count: 0, draining: false, responses: new Set() };
  const handle = dispatcher(options, inFlight);
  const h1 = http.createServer(http1Options(options.limits), (req, res) => void handle(req, res));
  const h2 = http2.createServer(http2Options(options.limits), (req, res) => void handle(req, res));
  enforceHttp2Limits(h2, options.limits);
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  h2.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    const spoke = closeIfSilent(socket, options.limits);
    socket.once("data", (chunk) => {
      spoke();
      socket.pause();
      socket.unshift(chunk);
      const target = chunk.subarray(0, 4).toString("latin1") === HTTP2_PREFACE_START ? h2 : h1;
      target.emit("connection", socket);
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  server.maxConnections = options.limits.maxConnections;
  enforceHttp1Limits(h1, options.limits);
  return {
    address: server.address() as AddressInfo,
    async close(graceMs) {
      server.close();
      inFlight.draining = true;
      for (const res of inFlight.responses) closeAfterResponse(res);
      for (const session of sessions) session.close();
      h1.close();
      const deadline = Date.now() + graceMs;
      while (inFlight.count > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        h1.closeIdleConnections();
      }
      for (const socket of sockets) socket.destroy();
    },
  };
}
