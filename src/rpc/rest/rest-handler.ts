import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { once } from "node:events";
import { toJson, type DescService, type JsonValue, type Message } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { codeToHttpStatus, errorToJson } from "@connectrpc/connect/protocol-connect";
import { AppError } from "../../domain/errors.js";
import { toConnectError } from "../errors.js";
import { jsonWriteOptions } from "../json-options.js";
import { bearerChallenge } from "./bearer-challenge.js";
import { buildRequest } from "./request-builder.js";
import { bodyChunks } from "../unread-body.js";
import { matchRoute, routesOf, type HttpRoute } from "./http-routes.js";

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

/** Headers a REST call forwards to the RPC it becomes. */
const forwardedHeaders = ["authorization", "x-request-id", "user-agent", "traceparent"];

export interface RestHandlerOptions {
  services: DescService[];
  /** In-process transport to the same router, so auth, validation and errors are shared. */
  transport: Transport;
  maxBodyBytes: number;
  prefix: string;
}

export type RestHandler = (req: Req, res: Res) => Promise<void>;

function writeJson(res: Res, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  (res as ServerResponse).writeHead(status, { "content-type": "application/json", ...headers });
  res.end(payload);
}

function writeError(res: Res, error: unknown, status?: number, headers?: Record<string, string>, authorization?: string): void {
  const connectError = toConnectError(error);
  const challenge = bearerChallenge(connectError, authorization);
  const allHeaders = challenge ? { ...headers, "www-authenticate": challenge } : headers;
  writeJson(res, status ?? codeToHttpStatus(connectError.code), errorToJson(connectError, jsonWriteOptions), allHeaders);
}

async function readBody(req: Req, maxBytes: number): Promise<JsonValue | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(req)) {
    size += chunk.length;
    if (size > maxBytes) {
      throw new ConnectError(`request body larger than ${maxBytes} bytes`, Code.ResourceExhausted);
    }
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const contentType = String(req.headers["content-type"] ?? "application/json");
  if (!/^application\/json\b/i.test(contentType)) {
    throw new AppError("MALFORMED_REQUEST", `content-type must be application/json, got "${contentType}"`);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as JsonValue;
  } catch (error) {
    throw new AppError("MALFORMED_REQUEST", `malformed JSON body: ${(error as Error).message}`);
  }
}

/**
 * A server-streaming RPC as NDJSON, one message per line, as grpc-gateway answers: the status is
 * sent with the first message, so an error after it becomes a last line `{"error": {...}}`.
 * Writes wait for the socket to drain, so a slow reader slows the stream instead of filling memory.
 */
async function writeStream(res: Res, messages: AsyncIterable<Message>, route: HttpRoute, authorization: string | undefined): Promise<void> {
  const iterator = messages[Symbol.asyncIterator]();
  let next: IteratorResult<Message>;
  try {
    next = await iterator.next();
  } catch (error) {
    return writeError(res, error, undefined, undefined, authorization);
  }
  (res as ServerResponse).writeHead(200, { "content-type": "application/x-ndjson" });
  try {
    while (!next.done) {
      const line = `${JSON.stringify(toJson(route.method.output, next.value, jsonWriteOptions))}\n`;
      if (!(res as ServerResponse).write(line)) await Promise.race([once(res as ServerResponse, "drain"), once(res as ServerResponse, "close")]);
      // The reader went away: stop reading from the database too.
      if ((res as ServerResponse).destroyed) return void (await iterator.return?.());
      next = await iterator.next();
    }
  } catch (error) {
    (res as ServerResponse).write(`${JSON.stringify({ error: errorToJson(toConnectError(error), jsonWriteOptions) })}\n`);
  }
  res.end();
}

function clientFor(transport: Transport, route: HttpRoute) {
  const client = createClient(route.method.parent, transport) as unknown as Record<
    string,
    (req: Message, opts: object) => Promise<Message>
  >;
  return client[route.method.localName];
}

export function createRestHandler(options: RestHandlerOptions): RestHandler {
  const routes = routesOf(options.services);
  return async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const result = matchRoute(routes, req.method ?? "GET", url.pathname);
    if (result.kind === "not_found") {
      return writeError(res, new ConnectError(`no route for ${url.pathname}`, Code.NotFound), 404);
    }
    if (result.kind === "method_not_allowed") {
      const error = new ConnectError(`method ${req.method} not allowed; use ${result.allow.join(", ")}`, Code.Unimplemented);
      return writeError(res, error, 405, { allow: result.allow.join(", ") });
    }
    const { route } = result.match;
    const authorization = typeof req.headers.authorization === "string" ? req.headers.authorization : undefined;
    let bodyRead = false;
    try {
      const body = await readBody(req, options.maxBodyBytes);
      bodyRead = true;
      const message = buildRequest(result.match, body, url.searchParams);
      const headers = new Headers();
      for (const name of forwardedHeaders) {
        const value = req.headers[name];
        if (typeof value === "string") headers.set(name, value);
      }
      if (route.method.methodKind === "server_streaming") {
        return await writeStream(res, clientFor(options.transport, route)(message, { headers }) as unknown as AsyncIterable<Message>, route, authorization);
      }
      const response = await clientFor(options.transport, route)(message, { headers });
      writeJson(res, 200, toJson(route.method.output, response, jsonWriteOptions));
    } catch (error) {
      // Only the body's own size is 413; a tenant's quota answers the code's 429.
      const status = !bodyRead && error instanceof ConnectError && error.code === Code.ResourceExhausted ? 413 : undefined;
      writeError(res, error, status, undefined, authorization);
    }
  };
}
