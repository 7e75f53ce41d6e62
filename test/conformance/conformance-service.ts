/**
 * The Connect conformance suite's ConformanceService, as connect-es's reference server implements
 * it: each request says what to answer (headers, trailers, data, delays, an error), and each
 * answer describes the request as the server saw it (headers, timeout, the messages), so the
 * runner can check both directions of every protocol through the front door.
 */
import { create, createRegistry, type MessageInitShape } from "@bufbuild/protobuf";
import { anyPack, type Any } from "@bufbuild/protobuf/wkt";
import { ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import {
  BidiStreamRequestSchema,
  ClientStreamRequestSchema,
  ConformancePayload_RequestInfoSchema,
  ConformancePayloadSchema,
  ConformanceService,
  IdempotentUnaryRequestSchema,
  ServerStreamRequestSchema,
  UnaryRequestSchema,
  type ConformancePayload_RequestInfo,
  type Error as ConformanceError,
  type Header,
  type StreamResponseDefinition,
  type UnaryResponseDefinition,
} from "../../.conformance/gen/connectrpc/conformance/v1/service_pb.js";

/** The request types the answers pack into Any: the JSON codec needs them to write RequestInfo. */
export const conformanceRegistry = createRegistry(UnaryRequestSchema, IdempotentUnaryRequestSchema, ServerStreamRequestSchema, ClientStreamRequestSchema, BidiStreamRequestSchema);

type Payload = MessageInitShape<typeof ConformancePayloadSchema>;

function requestInfo(ctx: HandlerContext, requests: Any[]): ConformancePayload_RequestInfo {
  const timeoutMs = ctx.timeoutMs();
  const requestHeaders: { name: string; value: string[] }[] = [];
  ctx.requestHeader.forEach((value, name) => requestHeaders.push({ name, value: [value] }));
  return create(ConformancePayload_RequestInfoSchema, { requestHeaders, requests, timeoutMs: timeoutMs === undefined ? undefined : BigInt(timeoutMs) });
}

function appendHeaders(target: Headers, headers: Header[] | undefined): void {
  for (const header of headers ?? []) for (const value of header.value) target.append(header.name, value);
}

/** The error the request asks for; its details travel as the Any bytes they came in. */
function errorFrom(error: ConformanceError, extra?: ConformancePayload_RequestInfo): ConnectError {
  const connectError = new ConnectError(error.message ?? "", error.code as number);
  for (const any of error.details) connectError.details.push({ type: any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1), value: any.value });
  if (extra) connectError.details.push({ desc: ConformancePayload_RequestInfoSchema, value: extra });
  return connectError;
}

/** The answer's delay; a call cancelled or past its deadline meanwhile ends with that reason. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", aborted, { once: true });
  });
}

async function unaryAnswer(definition: UnaryResponseDefinition | undefined, requests: Any[], ctx: HandlerContext) {
  appendHeaders(ctx.responseHeader, definition?.responseHeaders);
  appendHeaders(ctx.responseTrailer, definition?.responseTrailers);
  const info = requestInfo(ctx, requests);
  if (definition?.response.case === "error") throw errorFrom(definition.response.value, info);
  await delay(definition?.responseDelayMs ?? 0, ctx.signal);
  return { payload: { requestInfo: info, data: definition?.response.case === "responseData" ? definition.response.value : undefined } };
}

/** The stream's error; RequestInfo goes into it only when no message carried it already. */
function streamError(definition: StreamResponseDefinition | undefined, info: ConformancePayload_RequestInfo): ConnectError | undefined {
  if (definition?.error === undefined) return undefined;
  return errorFrom(definition.error, definition.responseData.length === 0 ? info : undefined);
}

export function conformanceRoutes(router: ConnectRouter): void {
  router.service(ConformanceService, {
    unary: (req, ctx) => unaryAnswer(req.responseDefinition, [anyPack(UnaryRequestSchema, req)], ctx),
    idempotentUnary: (req, ctx) => unaryAnswer(req.responseDefinition, [anyPack(IdempotentUnaryRequestSchema, req)], ctx),
    async clientStream(requests, ctx) {
      let definition: UnaryResponseDefinition | undefined;
      const seen: Any[] = [];
      for await (const req of requests) {
        definition ??= req.responseDefinition;
        seen.push(anyPack(ClientStreamRequestSchema, req));
      }
      return unaryAnswer(definition, seen, ctx);
    },
    async *serverStream(req, ctx) {
      const definition = req.responseDefinition;
      appendHeaders(ctx.responseHeader, definition?.responseHeaders);
      appendHeaders(ctx.responseTrailer, definition?.responseTrailers);
      const info = requestInfo(ctx, [anyPack(ServerStreamRequestSchema, req)]);
      let first = true;
      for (const data of definition?.responseData ?? []) {
        await delay(definition?.responseDelayMs ?? 0, ctx.signal);
        const payload: Payload = { requestInfo: first ? info : undefined, data };
        first = false;
        yield { payload };
      }
      const error = streamError(definition, info);
      if (error) throw error;
    },
    async *bidiStream(requests, ctx) {
      let definition: StreamResponseDefinition | undefined;
      let fullDuplex = false;
      let sent = 0;
      let seen: Any[] = [];
      for await (const req of requests) {
        if (definition === undefined) {
          definition = req.responseDefinition;
          appendHeaders(ctx.responseHeader, definition?.responseHeaders);
          appendHeaders(ctx.responseTrailer, definition?.responseTrailers);
          fullDuplex = req.fullDuplex;
        }
        seen.push(anyPack(BidiStreamRequestSchema, req));
        if (!fullDuplex) continue;
        // Full duplex: one answer per request, while there are answers to give.
        if (definition === undefined || sent >= definition.responseData.length) break;
        await delay(definition.responseDelayMs, ctx.signal);
        yield { payload: { requestInfo: requestInfo(ctx, [anyPack(BidiStreamRequestSchema, req)]), data: definition.responseData[sent] } };
        sent++;
        seen = [];
      }
      // Half duplex (nothing sent yet), or more answers asked for than requests came.
      const info = requestInfo(ctx, seen);
      for (; sent < (definition?.responseData.length ?? 0); sent++) {
        await delay(definition?.responseDelayMs ?? 0, ctx.signal);
        yield { payload: { requestInfo: sent === 0 ? info : undefined, data: definition?.responseData[sent] } };
      }
      const error = streamError(definition, info);
      if (error) throw error;
    },
  });
}
