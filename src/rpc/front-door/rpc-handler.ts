import type { IncomingMessage, ServerResponse } from "node:http";
import { constants as http2Constants, Http2ServerResponse, type Http2ServerRequest, type ServerHttp2Stream } from "node:http2";
import { Code, ConnectError, createConnectRouter, type ConnectRouter, type ConnectRouterOptions, type ContextValues } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from "@connectrpc/connect/protocol";
import { errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import type { Logger } from "pino";
import { frontDoorCodes, type FrontDoorReason } from "../error-codes.js";
import type { FrontDoorErrorOptions } from "./error-info-option.js";
import { jsonWriteOptions } from "../json-options.js";
import { bodyChunks } from "../unread-body.js";
import { binaryContentType, decodeGrpcWebText, encodeGrpcWebText, isGrpcWebText, textContentType } from "./grpc-web-text.js";
import {
  envelope,
  fixingConnectEndStream,
  fixingConnectUnaryError,
  fixingGrpcTrailers,
  fixingGrpcWebTrailers,
  frontDoorError,
  GRPC_WEB_TRAILERS,
  specGrpcStatus,
  trailerBlock,
} from "./wire-errors.js";

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

export interface RpcHandlerOptions extends ConnectRouterOptions, Partial<FrontDoorErrorOptions> {
  routes(router: ConnectRouter): void;
  contextValues?(req: Req): ContextValues;
  logger: Logger;
}

type Wire = "grpc" | "grpc-web" | "connect";

/** The protocol a request speaks, by its content type: what an answer to it must look like. */
function wireOf(contentType: string | null): Wire {
  if (contentType !== null && /^application\/grpc-web/i.test(contentType)) return "grpc-web";
  if (contentType !== null && /^application\/grpc(?=$|\+|;)/i.test(contentType)) return "grpc";
  return "connect";
}

/** A refusal before any handler: gRPC and gRPC-Web say it in their status (HTTP 200), Connect in its error body. */
function refusal(wire: Wire, reason: FrontDoorReason, message: string, connectStatus: number, fill: boolean): UniversalServerResponse {
  const error = frontDoorError(message, frontDoorCodes[reason], reason, fill);
  if (wire === "connect") {
    const body = errorToJsonBytes(error, jsonWriteOptions);
    const header = new Headers({ "content-type": "application/json", "content-length": String(body.byteLength) });
    return { status: connectStatus, header, body: iterable([body]) };
  }
  const status = setTrailerStatus(new Headers(), error);
  specGrpcStatus(status, fill);
  if (wire === "grpc") {
    return { status: 200, header: new Headers({ "content-type": "application/grpc" }), body: iterable([]), trailer: status };
  }
  return { status: 200, header: new Headers({ "content-type": "application/grpc-web+proto" }), body: iterable([envelope(GRPC_WEB_TRAILERS, trailerBlock(status))]) };
}

function iterable(chunks: Uint8Array[]): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield* chunks;
  })();
}

/** Content types of the Connect protocol: a client sending one reads Connect's error body. */
const CONNECT_CONTENT_TYPE = /^application\/(json|proto|connect\+[a-z]+)(?=$|;)/i;

/** What the front door takes (RFC 9110's Accept-Post), told to a client whose content type no protocol claims. */
const ACCEPTED_CONTENT_TYPES =
  "application/json, application/proto, application/connect+json, application/connect+proto, application/grpc, application/grpc+proto, application/grpc+json, application/grpc-web, application/grpc-web+proto, application/grpc-web+json, application/grpc-web-text, application/grpc-web-text+proto";

/**
 * A content type the procedure does not take. A Connect client gets Connect's error body. A content
 * type no protocol claims (image/jpeg, text/plain) says nothing of how its client reads errors:
 * gRPC's and gRPC-Web's specs ask only for the 415, and their clients read no body of a non-200
 * answer (the conformance suite checks that, as connect-go answers), so it gets the bare 415 with
 * what the front door takes in Accept-Post.
 */
function unsupportedMediaType(requestContentType: string | null, res: UniversalServerResponse, fill: boolean): UniversalServerResponse {
  if (requestContentType !== null && CONNECT_CONTENT_TYPE.test(requestContentType)) {
    return refusal("connect", "UNSUPPORTED_MEDIA_TYPE", "content type not supported by this procedure; use application/json or application/proto", 415, fill);
  }
  const header = new Headers(res.header);
  header.set("accept-post", ACCEPTED_CONTENT_TYPES);
  return { ...res, header };
}

/** The answer with its errors in the form the protocol's spec and clients expect (wire-errors.ts). */
async function specErrors(wire: Wire, requestContentType: string | null, res: UniversalServerResponse, fill: boolean): Promise<UniversalServerResponse> {
  const header = res.header ?? new Headers();
  const contentType = header.get("content-type") ?? "";
  if (res.status === 415 && wire === "connect" && !contentType) return unsupportedMediaType(requestContentType, res, fill);
  if (res.status === 405 && wire === "connect" && !contentType) return refusal(wire, "METHOD_NOT_ALLOWED", "HTTP method not allowed for this procedure", 405, fill);
  if (!res.body) return res;
  if (/^application\/grpc-web/i.test(contentType)) return { ...res, body: fixingGrpcWebTrailers(res.body, header.get("grpc-encoding"), fill) };
  if (/^application\/grpc/i.test(contentType)) {
    if (header.get("grpc-status") !== null) specGrpcStatus(header, fill);
    return res.trailer ? { ...res, body: fixingGrpcTrailers(res.body, res.trailer, fill) } : res;
  }
  // Connect writes its errors as the spec says already: what is left to do is the ErrorInfo.
  if (!fill) return res;
  if (/^application\/connect\+/i.test(contentType)) return { ...res, body: fixingConnectEndStream(res.body, header.get("connect-content-encoding")) };
  if (res.status !== 200 && /^application\/json/i.test(contentType)) {
    const fixed = await fixingConnectUnaryError(res.body, header, res.status);
    return { ...res, status: fixed.status, body: iterable([fixed.body]) };
  }
  return res;
}

async function answer(handlers: Map<string, UniversalHandler>, path: string, request: UniversalServerRequest, fill: boolean): Promise<UniversalServerResponse> {
  const contentType = request.header.get("content-type");
  const wire = wireOf(contentType);
  const text = isGrpcWebText(contentType);
  if (text && contentType !== null) {
    // The runtime serves binary gRPC-Web only: the text form is translated on the way in and out.
    request.header.set("content-type", binaryContentType(contentType));
    request.header.delete("content-length");
    request = { ...request, body: decodeGrpcWebText(request.body as AsyncIterable<Uint8Array>, fill) };
  }
  const handler = handlers.get(path);
  const raw = handler ? await handler(request) : refusal(wire, "UNKNOWN_PROCEDURE", `unknown procedure ${path}`, 404, fill);
  const res = await specErrors(wire, contentType, raw, fill);
  if (!text || !res.body) return res;
  const header = res.header ?? new Headers();
  header.set("content-type", textContentType(header.get("content-type") ?? "application/grpc-web+proto"));
  return { ...res, header, body: encodeGrpcWebText(res.body) };
}

/** How often a stream answered before its client finished looks whether its answer has gone out. */
const SENT_POLL_MS = 2;

/**
 * Resets the stream with NO_ERROR once its END_STREAM is on the wire, unless the client has
 * finished sending by then. nghttp2 sends RST_STREAM ahead of queued DATA, and Node has no event
 * for a frame sent, so the stream's state is looked at until its local side is closed.
 */
function resetOnceAnswered(stream: ServerHttp2Stream): void {
  if (stream.destroyed || stream.closed || stream.state.remoteClose) return;
  if (!stream.state.localClose) {
    setTimeout(resetOnceAnswered, SENT_POLL_MS, stream).unref();
    return;
  }
  stream.close(http2Constants.NGHTTP2_NO_ERROR);
}

/**
 * An HTTP/2 stream answered in full while its client is still sending (a message over the limit
 * in a client or bidi stream) is reset with NO_ERROR, as RFC 9113 §8.1 and gRPC's HTTP/2 protocol
 * ask, so that the client stops sending and reads the answer. Without it a client blocked on flow
 * control, writing the rest of a message that will never be read, waits for a window that never
 * opens and never reads the status. Node resets such a stream itself only when nothing was read.
 */
function releaseUnreadStream(res: Res): void {
  if (res instanceof Http2ServerResponse) res.stream.once("finish", () => resetOnceAnswered(res.stream));
}

/**
 * The RPC front door: connect-node's adapter (route lookup, Node request and response) with what
 * each protocol promises its clients added around the runtime: spec-encoded gRPC status messages,
 * an ErrorInfo on every error (unless `fillErrorInfo` is false: error-info-option.ts),
 * UNIMPLEMENTED in gRPC's own terms for unknown procedures, Connect error bodies for 404/405/415
 * (a 415 to a Connect content type only),
 * and application/grpc-web-text.
 */
export function createRpcHandler(options: RpcHandlerOptions): (req: Req, res: Res) => void {
  const { fillErrorInfo = true, ...routerOptions } = options;
  const router = createConnectRouter({ acceptCompression: [compressionGzip, compressionBrotli], ...routerOptions });
  options.routes(router);
  const handlers = new Map(router.handlers.map((h) => [h.requestPath, h]));
  return (req, res) => {
    const path = (req.url ?? "").split("?", 2)[0];
    // The runtime stops reading at a message over the limit: the rest is left to lingerOnUnreadBody.
    const request = { ...universalRequestFromNodeRequest(req, res, undefined, options.contextValues?.(req)), body: bodyChunks(req) };
    answer(handlers, path, request, fillErrorInfo)
      .then((response) => {
        releaseUnreadStream(res);
        return universalResponseToNodeResponse(response, res);
      })
      .catch((reason: unknown) => {
        if (ConnectError.from(reason).code === Code.Aborted) return;
        options.logger.error({ err: reason, path }, "rpc: could not answer");
      });
  };
}
