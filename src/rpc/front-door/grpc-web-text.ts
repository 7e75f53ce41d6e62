import { AppError } from "../../domain/errors.js";
import { toConnectError } from "../errors.js";

const TEXT_TYPE = /^application\/grpc-web-text(?=$|\+|;)/i;
const BASE64 = /^[A-Za-z0-9+/=]*$/;

/** `application/grpc-web-text`: gRPC-Web whose bodies are base64 (what proxies and XHR clients send). */
export function isGrpcWebText(contentType: string | null): boolean {
  return contentType !== null && TEXT_TYPE.test(contentType);
}

/** The binary gRPC-Web content type the runtime serves, for a text one; and back for the answer. */
export function binaryContentType(textType: string): string {
  return textType.replace(TEXT_TYPE, "application/grpc-web");
}

export function textContentType(binaryType: string): string {
  return binaryType.replace(/^application\/grpc-web/i, "application/grpc-web-text");
}

/** Whole quanta only; a quantum that ends in "=" closes a segment, and the next starts afresh. */
function decodeQuanta(text: string): Buffer {
  const segments: Buffer[] = [];
  let start = 0;
  for (let i = 3; i < text.length; i += 4) {
    if (text[i] !== "=") continue;
    segments.push(Buffer.from(text.slice(start, i + 1), "base64"));
    start = i + 1;
  }
  segments.push(Buffer.from(text.slice(start), "base64"));
  return Buffer.concat(segments);
}

/**
 * The request body decoded as it arrives. The spec lets a sender pad between chunks, so padding
 * may appear at any quantum's end; anything but base64 (line breaks aside) is a malformed request.
 */
export async function* decodeGrpcWebText(body: AsyncIterable<Uint8Array>, fillErrorInfo = true): AsyncGenerator<Uint8Array> {
  let pending = "";
  for await (const chunk of body) {
    pending += Buffer.from(chunk).toString("latin1").replace(/[\r\n\t ]/g, "");
    if (!BASE64.test(pending)) throw toConnectError(new AppError("MALFORMED_REQUEST", "grpc-web-text request body is not base64"), fillErrorInfo);
    const whole = pending.length - (pending.length % 4);
    if (whole === 0) continue;
    yield decodeQuanta(pending.slice(0, whole));
    pending = pending.slice(whole);
  }
  if (pending.length > 0) throw toConnectError(new AppError("MALFORMED_REQUEST", "grpc-web-text request body ends inside a base64 quantum"), fillErrorInfo);
}

/**
 * The answer encoded chunk by chunk, each padded on its own: PROTOCOL-WEB.md allows padding in
 * the middle of a response stream, and a streamed message must not wait for the next one.
 */
export async function* encodeGrpcWebText(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) yield Buffer.from(Buffer.from(chunk).toString("base64"), "latin1");
}
