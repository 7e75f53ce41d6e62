import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { toBinary } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { Code, ConnectError } from "@connectrpc/connect";
import { codeFromString, codeToHttpStatus, codeToString } from "@connectrpc/connect/protocol-connect";
import { findTrailerError, headerGrpcMessage, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { reasonForRuntimeError } from "../error-codes.js";
import { errorInfo } from "../errors.js";
import { encodeGrpcMessage } from "./grpc-message.js";

/**
 * Errors as each protocol's spec writes them, whoever raised them. Handler errors already carry an
 * ErrorInfo (the error interceptor); errors the runtime raises before any interceptor (a body over
 * the limit, one that does not decode) get theirs here, from their code. An error that carries
 * details of its own keeps exactly those. `fill` false (FrontDoorErrorOptions.fillErrorInfo):
 * no ErrorInfo is added, only the spec's encoding applies.
 */

const ERROR_INFO = ErrorInfoSchema.typeName;

/**
 * The runtime raises a request body that does not decode as protobuf, or an envelope it cannot
 * decompress, as `internal` (as grpc-go does). Both are the caller's to fix, so the product API
 * answers them as connect-go does and as it answers a body that does not decode as JSON:
 * invalid_argument with MALFORMED_REQUEST. The runtime's own messages are the only way to tell
 * them from a server fault; a message that changes in a new runtime leaves them `internal`, which
 * test/integration/protocol-front-door.test.ts catches.
 */
const CALLER_DECODE_FAILURE = /^(parse binary: |received compressed envelope, but do not know how to decompress|invalid envelope, already compressed)/;

function callerCode(code: Code, message: unknown): Code {
  return code === Code.Internal && typeof message === "string" && CALLER_DECODE_FAILURE.test(message) ? Code.InvalidArgument : code;
}

/** Envelope flags (gRPC-Web trailers, Connect end of stream) and the per-message compression bit. */
export const GRPC_WEB_TRAILERS = 0x80;
const CONNECT_END_STREAM = 0x02;
const COMPRESSED = 0x01;

/** The runtime's decompression is not reachable from here; only what it negotiates is needed. */
function inflate(data: Uint8Array, encoding: string | null): Uint8Array | undefined {
  if (encoding === null || encoding === "identity") return data;
  if (encoding === "gzip") return gunzipSync(data);
  if (encoding === "br") return brotliDecompressSync(data);
  return undefined;
}

/** grpc-status / grpc-message / grpc-status-details-bin, in trailers or a trailers-only header. */
export function specGrpcStatus(fields: Headers, fill: boolean): void {
  let error = findTrailerError(fields);
  if (!error) return;
  if (fill && error.details.length === 0 && callerCode(error.code, error.rawMessage) !== error.code) {
    error = new ConnectError(error.rawMessage, Code.InvalidArgument, error.metadata, [], error.cause);
    setTrailerStatus(fields, error);
  }
  if (fill && error.details.length === 0) {
    error.details.push(errorInfo(reasonForRuntimeError(error.code)));
    setTrailerStatus(fields, error);
  }
  fields.set(headerGrpcMessage, encodeGrpcMessage(error.rawMessage));
}

/** A gRPC answer whose trailers are final once its body has been read to the end. */
export async function* fixingGrpcTrailers(body: AsyncIterable<Uint8Array>, trailer: Headers, fill: boolean): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } finally {
    specGrpcStatus(trailer, fill);
  }
}

type JsonError = { code?: unknown; message?: unknown; details?: { type?: unknown }[] };

/** A Connect error object (unary body or end-of-stream `error`) with an ErrorInfo added when it has no details. */
function withErrorInfo(error: JsonError, code: Code): void {
  const details = Array.isArray(error.details) ? error.details : [];
  if (details.length > 0) return;
  const info = errorInfo(reasonForRuntimeError(code)).value;
  error.details = [...details, { type: ERROR_INFO, value: base64Encode(toBinary(ErrorInfoSchema, info), "std_raw") } as { type: string }];
}

function codeOf(name: unknown): Code {
  return (typeof name === "string" && codeFromString(name)) || Code.Unknown;
}

function rewriteJson(data: Uint8Array, edit: (value: Record<string, unknown>) => void): Uint8Array {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(data).toString("utf8"));
  } catch {
    return data;
  }
  if (typeof value !== "object" || value === null) return data;
  edit(value as Record<string, unknown>);
  return Buffer.from(JSON.stringify(value), "utf8");
}

/** A Connect error object with the caller's code (callerCode) and an ErrorInfo; answers the code. */
function fixConnectError(error: JsonError): Code {
  const code = callerCode(codeOf(error.code), error.message);
  error.code = codeToString(code);
  withErrorInfo(error, code);
  return code;
}

function connectEndStream(data: Uint8Array): Uint8Array {
  return rewriteJson(data, (end) => {
    const error = end.error as JsonError | undefined;
    if (error && typeof error === "object") fixConnectError(error);
  });
}

/** A gRPC-Web trailer block: CRLF-separated fields, as connect-es writes and parses them. */
function grpcWebTrailers(data: Uint8Array, fill: boolean): Uint8Array {
  const fields = new Headers();
  for (const line of Buffer.from(data).toString("utf8").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) fields.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  if (fields.get("grpc-status") === null || fields.get("grpc-status") === "0") return data;
  specGrpcStatus(fields, fill);
  return trailerBlock(fields);
}

export function trailerBlock(fields: Headers): Uint8Array {
  let block = "";
  fields.forEach((value, key) => (block += `${key}: ${value}\r\n`));
  return Buffer.from(block, "utf8");
}

export function envelope(flags: number, data: Uint8Array): Uint8Array {
  const framed = Buffer.alloc(5 + data.byteLength);
  framed[0] = flags;
  framed.writeUInt32BE(data.byteLength, 1);
  framed.set(data, 5);
  return framed;
}

/**
 * The body's envelopes, each as one chunk (as the runtime writes them), with the one that ends the
 * stream rewritten; a compressed one is sent uncompressed, which its flag says.
 */
async function* rewriteLastEnvelope(body: AsyncIterable<Uint8Array>, flag: number, encoding: string | null, rewrite: (data: Uint8Array) => Uint8Array): AsyncGenerator<Uint8Array> {
  let buffer: Buffer = Buffer.alloc(0);
  for await (const chunk of body) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    buffer = buffer.length === 0 ? bytes : Buffer.concat([buffer, bytes]);
    while (buffer.length >= 5 && buffer.length >= 5 + buffer.readUInt32BE(1)) {
      const end = 5 + buffer.readUInt32BE(1);
      const framed = buffer.subarray(0, end);
      buffer = buffer.subarray(end);
      const flags = framed[0];
      const data = (flags & flag) === flag ? inflate(framed.subarray(5), flags & COMPRESSED ? encoding : null) : undefined;
      yield data === undefined ? framed : envelope(flags & ~COMPRESSED, rewrite(data));
    }
  }
  if (buffer.length > 0) yield buffer;
}

export function fixingGrpcWebTrailers(body: AsyncIterable<Uint8Array>, encoding: string | null, fill: boolean): AsyncGenerator<Uint8Array> {
  return rewriteLastEnvelope(body, GRPC_WEB_TRAILERS, encoding, (data) => grpcWebTrailers(data, fill));
}

export function fixingConnectEndStream(body: AsyncIterable<Uint8Array>, encoding: string | null): AsyncGenerator<Uint8Array> {
  return rewriteLastEnvelope(body, CONNECT_END_STREAM, encoding, connectEndStream);
}

/**
 * A Connect unary error body, read whole (it is small), decompressed when it was compressed, and
 * its HTTP status, that of the new code when callerCode changed it.
 */
export async function fixingConnectUnaryError(body: AsyncIterable<Uint8Array>, header: Headers, status: number): Promise<{ body: Uint8Array; status: number }> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  const whole = Buffer.concat(chunks);
  const data = inflate(whole, header.get("content-encoding"));
  if (data === undefined) return { body: whole, status };
  header.delete("content-encoding");
  let changed: Code | undefined;
  const fixed = rewriteJson(data, (error) => {
    const code = codeOf(error.code);
    if (fixConnectError(error) !== code) changed = codeOf(error.code);
  });
  header.set("content-length", String(fixed.byteLength));
  // Only a code callerCode changed gets its status: a 404 for an unknown procedure stays one.
  return { body: fixed, status: changed === undefined ? status : codeToHttpStatus(changed) };
}

/** An error the front door raises itself, as a ConnectError with its ErrorInfo when the mount fills them in. */
export function frontDoorError(message: string, code: Code, reason: string, fill: boolean): ConnectError {
  return new ConnectError(message, code, undefined, fill ? [errorInfo(reason)] : []);
}
