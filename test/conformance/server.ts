/**
 * The conformance server the runner starts (`connectconformance --mode server -- tsx
 * test/conformance/server.ts`): the suite's ConformanceService behind this project's own front
 * door, built as src/main/api.ts builds the API's (one listener for HTTP/1.1 and h2c, protocol
 * detection, the RPC handler's wire errors, the API's interceptors but auth, its HTTP limits),
 * with one difference: the front door fills in no ErrorInfo (fillErrorInfo: false,
 * src/rpc/front-door/error-info-option.ts), as each case defines the exact error it expects.
 * Reads a size-delimited ServerCompatRequest on stdin, answers a ServerCompatResponse on stdout;
 * logs go to stderr, which the runner shows beside a failing case.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { pino } from "pino";
import { v7 as uuidv7 } from "uuid";
import { createReadiness } from "../../src/app/readiness.js";
import { readEnv } from "../../src/config/env.js";
import { DEFAULT_MAX_REQUEST_BODY_BYTES, parseHttpLimits } from "../../src/config/http-limits.js";
import { createMetrics } from "../../src/observability/metrics.js";
import { frontDoorRouterOptions } from "../../src/rpc/api-router.js";
import { clientAddressValues } from "../../src/rpc/client-address.js";
import { createRpcHandler } from "../../src/rpc/front-door/rpc-handler.js";
import { startHttpServer } from "../../src/rpc/http-server.js";
import { metricsInterceptor } from "../../src/rpc/interceptors/metrics-interceptor.js";
import { validationInterceptor } from "../../src/rpc/interceptors/validation-interceptor.js";
import { ServerCompatRequestSchema, ServerCompatResponseSchema } from "../../.conformance/gen/connectrpc/conformance/v1/server_compat_pb.js";
import { conformanceRegistry, conformanceRoutes } from "./conformance-service.js";

/** A fixed-32-bit big-endian length, then the message: the runner's framing both ways. */
async function readDelimited(input: NodeJS.ReadableStream): Promise<Uint8Array> {
  let buffer = Buffer.alloc(0);
  for await (const chunk of input) {
    buffer = Buffer.concat([buffer, chunk as Buffer]);
    if (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32BE(0)) break;
  }
  if (buffer.length < 4 || buffer.length < 4 + buffer.readUInt32BE(0)) throw new Error("stdin ended before a whole ServerCompatRequest");
  return buffer.subarray(4, 4 + buffer.readUInt32BE(0));
}

function writeDelimited(data: Uint8Array): void {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(data.byteLength);
  process.stdout.write(Buffer.concat([size, data]));
}

const request = fromBinary(ServerCompatRequestSchema, await readDelimited(process.stdin));
// The front door speaks plaintext only (TLS ends at the load balancer): the config asks for no TLS.
if (request.useTls) throw new Error("TLS was asked for; the front door serves plaintext HTTP/1.1 and h2c only (test/conformance/config.yaml)");

const env = readEnv();
const logger = pino({ level: env.LOG_LEVEL ?? "silent", name: "conformance" }, pino.destination(2));
const metrics = createMetrics({ readStore: () => Promise.reject(new Error("no store behind the conformance server")) });
const routerOptions = frontDoorRouterOptions(
  {
    logger,
    newRequestId: () => uuidv7(),
    // The suite's limit when it sets one: its cases check that a larger message is refused.
    maxRequestBodyBytes: request.messageReceiveLimit || DEFAULT_MAX_REQUEST_BODY_BYTES,
    observers: [metricsInterceptor(metrics.rpc)],
    // The suite's service says which details each error carries: none added (the API adds its ErrorInfo).
    fillErrorInfo: false,
  },
  // No auth: the suite's clients carry no token, and the service has no tenant.
  [validationInterceptor()],
);
const connect = createRpcHandler({
  routes: conformanceRoutes,
  ...routerOptions,
  jsonOptions: { ...routerOptions.jsonOptions, registry: conformanceRegistry },
  contextValues: clientAddressValues,
  logger,
});
const server = await startHttpServer({
  host: "127.0.0.1",
  port: 0,
  logger,
  readiness: createReadiness([], { now: () => performance.now() }),
  newRequestId: () => uuidv7(),
  restPrefix: "/api/v1",
  // No JSON API here: its paths get the RPC handler's unknown-procedure answer.
  rest: connect,
  connect,
  limits: parseHttpLimits(env, 30),
});
writeDelimited(toBinary(ServerCompatResponseSchema, create(ServerCompatResponseSchema, { host: server.address.address, port: server.address.port })));

process.once("SIGTERM", () => {
  void server.close(1000).then(() => process.exit(0));
});
