/**
 * The grpc-message trailer as the gRPC spec (PROTOCOL-HTTP2.md, Status-Message) writes it: the
 * message's UTF-8 bytes, with only the bytes outside printable ASCII (0x20-0x7E) and "%" itself
 * percent-encoded. connect-es uses encodeURIComponent, which also escapes ":", "/", ",", ";" and
 * spaces; grpc-js does not decode those and shows `objectId%3A must be ...` to its users.
 */
export function encodeGrpcMessage(message: string): string {
  let encoded = "";
  for (const byte of Buffer.from(message, "utf8")) {
    encoded += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return encoded;
}
