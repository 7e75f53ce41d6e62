import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { checkPdfActiveContent } from "../../../../src/domain/files/checks/pdf-active-content.js";
import { MAX_INFLATED_STREAMS } from "../../../../src/domain/files/checks/pdf-streams.js";
import { scanFile } from "../../../../src/domain/files/checks/scanner.js";
import { bufferSource, latin1, objectStream, pdf } from "../../../fixtures/files/index.js";

const PDF = "application/pdf";
const ACTION = "<< /Type /Action /S /JavaScript /JS (app.alert(1)) >>";

async function activeContent(bytes: Uint8Array, chunkSize = 64 * 1024) {
  return checkPdfActiveContent(bufferSource(bytes, { chunkSize }), "reject");
}

describe("pdf_active_content reads compressed object streams", () => {
  it("refuses JavaScript inside a FlateDecode object stream", async () => {
    const file = pdf({ streams: [objectStream(["<< /Type /Catalog >>", ACTION])] });
    const outcome = await scanFile(PDF, bufferSource(file));
    expect(outcome.passed).toBe(false);
    expect(outcome.checks).toContainEqual(expect.objectContaining({ name: "pdf_active_content", passed: false, reason: "PDF_JAVASCRIPT" }));
  });

  it.each([1, 3, 7, 4096])("finds it whatever the chunk boundaries (chunks of %i bytes)", async (chunkSize) => {
    const file = pdf({ streams: [objectStream([ACTION])] });
    await expect(activeContent(file, chunkSize)).resolves.toMatchObject({ reason: "PDF_JAVASCRIPT" });
  });

  // `endstream` split at every place across a chunk boundary, held bytes and all: the second
  // stream is found (and inflated) only if the first one's end was.
  it.each(Array.from({ length: 17 }, (_, i) => i + 8))("ends a stream whose endstream spans a chunk boundary (chunks of %i bytes)", async (chunkSize) => {
    const file = pdf({ streams: [objectStream(["<< /Type /Catalog >>"]), objectStream([ACTION])] });
    await expect(activeContent(file, chunkSize)).resolves.toMatchObject({ reason: "PDF_JAVASCRIPT" });
  });

  it("decodes #xx escapes in names inside an object stream", async () => {
    const file = pdf({ streams: [objectStream(["<< /S /J#61vaScript /J#53 (x) >>"])] });
    await expect(activeContent(file)).resolves.toMatchObject({ reason: "PDF_JAVASCRIPT" });
  });

  it.each([
    ["a launch action", "<< /S /Launch /F (cmd.exe) >>", "PDF_LAUNCH_ACTION"],
    ["an embedded file", "<< /Type /EmbeddedFiles >>", "PDF_EMBEDDED_FILE"],
    ["an XFA form", "<< /Fields [] /XFA 30 0 R >>", "PDF_XFA"],
  ])("finds %s inside an object stream", async (_label, object, reason) => {
    await expect(activeContent(pdf({ streams: [objectStream([object])] }))).resolves.toMatchObject({ passed: false, reason });
  });

  it("finds JavaScript in any FlateDecode stream, whatever its dictionary says", async () => {
    const file = pdf({ streams: [{ dictionary: "/Filter /Fl#61teDecode", data: new Uint8Array(zlib.deflateSync(latin1(ACTION))) }] });
    await expect(activeContent(file)).resolves.toMatchObject({ reason: "PDF_JAVASCRIPT" });
  });

  it("refuses an object stream encoded in a way the search cannot read", async () => {
    const object = "<< /Title (x) >>";
    const hex = objectStream([object], {
      dictionary: "/Type /ObjStm /N 1 /First 5 /Filter [/ASCIIHexDecode /FlateDecode]",
      data: (plain) => latin1(Buffer.from(zlib.deflateSync(plain)).toString("hex")),
    });
    const predictor = objectStream([object], { dictionary: "/Type /ObjStm /N 1 /First 5 /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>" });
    const cut = objectStream([object], { data: (plain) => new Uint8Array(zlib.deflateSync(plain)).subarray(0, 12) });
    for (const stream of [hex, predictor, cut]) {
      await expect(activeContent(pdf({ streams: [stream] }))).resolves.toMatchObject({ passed: false, reason: "PDF_OBJECT_STREAM_UNREADABLE" });
    }
  });

  it("refuses an object stream that inflates past the per-stream cap", async () => {
    const bomb = objectStream(["% " + "x".repeat(400_000)]);
    const outcome = await checkPdfActiveContent(bufferSource(pdf({ streams: [bomb] })), "reject", { maxObjectStreamBytes: 256 * 1024, maxFileBytes: 8 * 1024 * 1024 });
    expect(outcome).toMatchObject({ passed: false, reason: "PDF_INFLATION_TOO_LARGE" });
  });

  it("refuses object streams that together pass the per-file cap", async () => {
    const streams = Array.from({ length: 3 }, () => objectStream(["% " + "y".repeat(200_000)]));
    const outcome = await checkPdfActiveContent(bufferSource(pdf({ streams })), "reject", { maxObjectStreamBytes: 256 * 1024, maxFileBytes: 512 * 1024 });
    expect(outcome).toMatchObject({ passed: false, reason: "PDF_INFLATION_TOO_LARGE" });
  });

  it("refuses more object streams than it will inflate", async () => {
    const streams = Array.from({ length: MAX_INFLATED_STREAMS + 1 }, () => objectStream(["<< /Title (x) >>"]));
    await expect(activeContent(pdf({ streams }))).resolves.toMatchObject({ passed: false, reason: "PDF_INFLATION_TOO_LARGE" });
  });

  it("passes a clean PDF whose objects sit in compressed object streams", async () => {
    const file = pdf({ streams: [objectStream(["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", "<< /Title (Report) /Producer (x) >>"])] });
    const outcome = await scanFile(PDF, bufferSource(file, { chunkSize: 5 }));
    expect(outcome).toMatchObject({ passed: true });
  });

  it("passes page content and image streams it cannot fully read (they hold no actions)", async () => {
    const image = { dictionary: "/Type /XObject /Subtype /Image /Filter /DCTDecode", data: new Uint8Array(4096).fill(0x37) };
    const content = { dictionary: "/Filter /FlateDecode", data: new Uint8Array(zlib.deflateSync(Buffer.alloc(3 * 1024 * 1024, " "))) };
    await expect(activeContent(pdf({ streams: [image, content] }))).resolves.toEqual({ name: "pdf_active_content", passed: true });
  });
});
