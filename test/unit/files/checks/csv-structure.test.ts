import { describe, expect, it } from "vitest";
import { checkCsv, CsvStructureChecker } from "../../../../src/domain/files/checks/csv-structure.js";
import { scanFile } from "../../../../src/domain/files/checks/scanner.js";
import { bufferSource, concat, csv, generatedSource, text } from "../../../fixtures/files/index.js";

/** Runs the checker over `bytes` cut into chunks of `size` bytes. */
function checkInChunks(bytes: Uint8Array, size: number) {
  const checker = new CsvStructureChecker();
  for (let at = 0; at < bytes.length; at += size) checker.push(bytes.subarray(at, at + size));
  return checker.finish();
}

/** The verdict (not the wording, which may cite chunk offsets) must not depend on chunk boundaries. */
function expectSameVerdictForEveryChunking(bytes: Uint8Array) {
  const whole = checkInChunks(bytes, bytes.length || 1);
  for (const size of [1, 2, 3, 5, 7, 64]) {
    const { passed, reason } = checkInChunks(bytes, size);
    expect({ passed, reason }, `chunks of ${size}`).toEqual({ passed: whole.passed, reason: whole.reason });
  }
  return whole;
}

const valid: [string, Uint8Array][] = [
  ["comma, CRLF", text("a,b,c\r\n1,2,3\r\n")],
  ["LF line breaks", text("a,b\n1,2\n")],
  ["no trailing newline", text("a,b\n1,2")],
  ["UTF-8 BOM", text("\ufeffa,b\n1,2\n")],
  ["semicolon", text("a;b;c\n1;2;3\n")],
  ["tab", text("a\tb\n1\t2\n")],
  ["pipe", text("a|b\n1|2\n")],
  ["quoted delimiter", text('a,b\n"1,5",2\n')],
  ["quoted newline", text('a,b\n"line one\nline two",2\n')],
  ["quoted CRLF", text('a,b\n"line one\r\nline two",2\n')],
  ["escaped quotes", text('a,b\n"say ""hi""",2\n')],
  ["empty quoted field", text('a,b\n"",2\n')],
  ["empty fields", text("a,b,c\n,,\n")],
  ["blank lines are ignored", text("a,b\n\n1,2\n\r\n3,4\n")],
  ["single column", text("name\nAda\nGrace\n")],
  ["other delimiters inside data", text("a,b\nx;y,z|w\n")],
  ["multi-byte UTF-8", text("ville,prix\nZürich,€5\n東京,😀\n")],
  ["header only", text("a,b,c\n")],
  ["builder output with every kind of quoting", csv([["id", "note"], ["1", 'He said "no", twice\nthen left'], ["2", ""]])],
];

const invalid: [string, Uint8Array, string][] = [
  ["ragged row", text("a,b,c\n1,2,3\n4,5\n"), "CSV_RAGGED_ROWS"],
  ["ragged last row without newline", text("a,b\n1,2\n3"), "CSV_RAGGED_ROWS"],
  ["NUL byte", text("a,b\n1\u0000,2\n"), "CSV_NUL_BYTE"],
  ["invalid UTF-8", concat(text("a,b\n"), [0xff], text(",2\n")), "CSV_INVALID_UTF8"],
  ["truncated UTF-8 sequence mid-file", concat(text("a,b\n"), [0xe2, 0x82], text(",2\n")), "CSV_INVALID_UTF8"],
  ["truncated UTF-8 sequence at the end", concat(text("a,b\n1,"), [0xf0, 0x9f, 0x98]), "CSV_INVALID_UTF8"],
  ["unclosed quote", text('a,b\n"1,2\n'), "CSV_UNBALANCED_QUOTES"],
  ["stray quote", text('a,b\n1",2\n'), "CSV_UNBALANCED_QUOTES"],
  ["text after closing quote", text('a,b\n"1" ,2\n'), "CSV_UNBALANCED_QUOTES"],
  ["tie between delimiters", text("a;b,c\n"), "CSV_AMBIGUOUS_DELIMITER"],
  ["bare CR", text("a,b\r1,2\n"), "CSV_INVALID_LINE_BREAK"],
  ["CR at end of file", text("a,b\r"), "CSV_INVALID_LINE_BREAK"],
  ["only a BOM", text("\ufeff"), "CSV_EMPTY"],
  ["only line breaks", text("\r\n\n"), "CSV_EMPTY"],
];

describe("CsvStructureChecker", () => {
  it.each(valid)("accepts %s", (_name, bytes) => {
    expect(expectSameVerdictForEveryChunking(bytes)).toEqual({ name: "csv_structure", passed: true });
  });

  it.each(invalid)("rejects %s", (_name, bytes, reason) => {
    expect(expectSameVerdictForEveryChunking(bytes)).toMatchObject({ name: "csv_structure", passed: false, reason });
  });

  it("names the line of a ragged row, counting line breaks inside quotes", () => {
    const result = checkInChunks(text('a,b\n"x\ny",2\n3,4\n5\n'), 4);
    expect(result.message).toContain("line 5");
  });

  it("picks the most frequent delimiter of the first record", () => {
    expect(checkInChunks(text("a;b;c,d\n1;2;3,4\n"), 100).passed).toBe(true);
    expect(checkInChunks(text("a;b;c,d\n1;2;3;4\n"), 100)).toMatchObject({ reason: "CSV_RAGGED_ROWS" });
  });

  it("ignores input after the first failure", () => {
    const checker = new CsvStructureChecker();
    expect(checker.push(text("a,b\n1\u0000"))).toBe(false);
    expect(checker.push(text("\n"))).toBe(false);
    expect(checker.finish()).toMatchObject({ reason: "CSV_NUL_BYTE" });
  });
});

describe("checkCsv: streaming", () => {
  it("stops reading at the first failure", async () => {
    const bytes = concat(text("a,b\n1,\u0000\n"), new Uint8Array(1024 * 1024).fill(0x61));
    const source = bufferSource(bytes, { chunkSize: 1024 });
    const [structure] = await checkCsv(source, "reject");
    expect(structure).toMatchObject({ reason: "CSV_NUL_BYTE" });
    expect(source.bytesServed).toBe(1024);
  });

  it("streams a 5 MB CSV generated on the fly, in constant memory", async () => {
    // Each 64 KB chunk is whole rows; the file is never materialized.
    const row = "12345,Ada Lovelace,\"London, UK\",1815-12-10,\"said \"\"hi\"\"\"\r\n";
    const rowsPerChunk = Math.floor(65_536 / row.length);
    const header = text("id,name,city,born,quote\r\n");
    const body = text(row.repeat(rowsPerChunk));
    const size = header.length + body.length * 80; // ~5 MB
    const chunkAt = (index: number) => (index === 0 ? header : body);
    const source = generatedSource(size, chunkAt, concat(header, body).subarray(0, 4100));
    const outcome = await scanFile("text/csv", source);
    expect(outcome.checks).toEqual([
      { name: "magic_bytes", passed: true },
      { name: "csv_structure", passed: true },
      { name: "csv_formula_cells", passed: true },
    ]);
    expect(size).toBeGreaterThan(5_000_000);
    expect(outcome.bytesRead).toBe(size + 4100);
  });
});
