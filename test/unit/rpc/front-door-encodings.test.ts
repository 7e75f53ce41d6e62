/**
 * The two encodings the front door writes by hand: the gRPC spec's percent-encoding of
 * grpc-message, and gRPC-Web text's base64 (padding allowed between segments, chunks split
 * anywhere). The protocols themselves are tested with real clients in
 * test/integration/protocol-front-door.test.ts.
 */
import { describe, expect, it } from "vitest";
import { encodeGrpcMessage } from "../../../src/rpc/front-door/grpc-message.js";
import { decodeGrpcWebText, encodeGrpcWebText } from "../../../src/rpc/front-door/grpc-web-text.js";
import { reasonOf } from "../../support/errors.js";

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part, "latin1");
}

describe("grpc-message", () => {
  it("leaves printable ASCII as it is and escapes '%', control bytes and UTF-8 bytes", () => {
    expect(encodeGrpcMessage("objectId: must be a valid UUID; allowed: image/jpeg, image/png")).toBe("objectId: must be a valid UUID; allowed: image/jpeg, image/png");
    expect(encodeGrpcMessage("100% é\n~")).toBe("100%25 %C3%A9%0A~");
    expect(decodeURIComponent(encodeGrpcMessage("naïve 🦊 50%"))).toBe("naïve 🦊 50%");
  });
});

describe("application/grpc-web-text", () => {
  it("decodes segments padded in the middle, split at any byte", async () => {
    const first = Buffer.from([0, 0, 0, 0, 1, 7]).toString("base64"); // "AAAAAAEH" (no padding)
    const second = Buffer.from([0x80, 0, 0, 0, 0]).toString("base64"); // "gAAAAAA=" (padded)
    const third = Buffer.from([1]).toString("base64"); // "AQ=="
    const text = `${second}${third}${first}`;
    const decoded = await collect(decodeGrpcWebText(chunks(text.slice(0, 3), text.slice(3, 11), `${text.slice(11)}\r\n`)));
    expect([...decoded]).toEqual([0x80, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 7]);
  });

  it("refuses a body that is not base64 as MALFORMED_REQUEST", async () => {
    const refused = await collect(decodeGrpcWebText(chunks("AAAA*AAA"))).catch((e: unknown) => e);
    expect(reasonOf(refused as Error)).toBe("MALFORMED_REQUEST");
    const cut = await collect(decodeGrpcWebText(chunks("AAAAA"))).catch((e: unknown) => e);
    expect(reasonOf(cut as Error)).toBe("MALFORMED_REQUEST");
  });

  it("encodes each chunk on its own, so a streamed message is never held back", async () => {
    const encoded = await collect(encodeGrpcWebText(chunks("\x00\x00\x00\x00\x01\x07", "\x80")));
    expect(encoded.toString("latin1")).toBe("AAAAAAEH" + "gA==");
  });
});
