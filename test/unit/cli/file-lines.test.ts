/** The line reader of `audit verify`: every line once, numbered, across reads, in flat memory. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileLines, LineTooLong, MAX_LINE_BYTES } from "../../../src/cli/audit-verify/file-lines.js";

const dir = mkdtempSync(path.join(tmpdir(), "file-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileOf(text: string): string {
  const name = path.join(dir, `f-${Math.random().toString(36).slice(2)}`);
  writeFileSync(name, text);
  return name;
}

async function read(file: string, marker?: string) {
  const lines: { line: number; text: string }[] = [];
  for await (const batch of fileLines(file)(marker)) lines.push(...batch);
  return lines;
}

describe("fileLines", () => {
  it("numbers every line, strips CR, keeps blank lines and a last line without a newline", async () => {
    expect(await read(fileOf("a\r\nb\n\nc"))).toEqual([
      { line: 1, text: "a" },
      { line: 2, text: "b" },
      { line: 3, text: "" },
      { line: 4, text: "c" },
    ]);
  });

  it("decodes only the lines holding the marker, numbered as in the file", async () => {
    const text = ['{"id":"1"}', '{"checkpoint":{"sequence":"1"}}', '{"id":"2"}', '{"checkpoint":{"sequence":"2"}}', '{"id":"3","checkpoint"'].join("\n");
    expect((await read(fileOf(text), '"checkpoint"')).map((l) => l.line)).toEqual([2, 4, 5]);
  });

  it("joins lines that span reads, multi-byte characters included", async () => {
    const long = `${"é".repeat(700_000)}x`;
    const lines = await read(fileOf(`first\n${long}\n${long}\nlast\n`), "x");
    expect(lines.map((l) => [l.line, l.text.length])).toEqual([[2, long.length], [3, long.length]]);
    expect(lines[0]!.text).toBe(long);
  });

  it("refuses a line longer than it would buffer", async () => {
    await expect(read(fileOf(`ok\n${"x".repeat(MAX_LINE_BYTES + 2 * 1024 * 1024)}\n`))).rejects.toMatchObject({ line: 2, constructor: LineTooLong });
  });
});
