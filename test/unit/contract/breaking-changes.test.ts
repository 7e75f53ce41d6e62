/**
 * `npm run lint:breaking` (part of `npm test`) compares the contract in proto/ with the last
 * released one (release/contract.binpb) under buf.yaml's breaking rules. Here each change is made
 * to a copy of the contract: the check must refuse a renumbered field and a removed RPC, and
 * accept an added optional field.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const root = process.cwd();
const buf = path.join(root, "node_modules", ".bin", "buf");
const run = promisify(execFile);
let copies: string[] = [];
afterEach(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  copies = [];
});

/** A copy of the workspace's contract with `file` edited, checked against the released image. */
async function breakingAfter(file: string, edit: (text: string) => string): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), "contract-"));
  copies.push(dir);
  for (const entry of ["buf.yaml", "proto", ".proto-deps"]) cpSync(path.join(root, entry), path.join(dir, entry), { recursive: true });
  const target = path.join(dir, "proto", file);
  const before = readFileSync(target, "utf8");
  const after = edit(before);
  expect(after, "the edit changed nothing").not.toBe(before);
  writeFileSync(target, after);
  try {
    const { stdout, stderr } = await run(buf, ["breaking", "proto", "--against", path.join(root, "release", "contract.binpb")], { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("the breaking-change check against the released contract", () => {
  it("refuses a renumbered field", async () => {
    const result = await breakingAfter("filestorage/v1/types.proto", (text) => text.replace("  string original_filename = 7;", "  string original_filename = 70;"));
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/original_filename/);
  });

  it("refuses a removed RPC", async () => {
    const result = await breakingAfter("filestorage/v1/audit_service.proto", (text) =>
      text.replace(/\n {2}rpc ListAuditSigningKeys\([^]*?\n {2}\}\n/, "\n"),
    );
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/ListAuditSigningKeys/);
  });

  it("accepts an added optional field", async () => {
    const result = await breakingAfter("filestorage/v1/types.proto", (text) =>
      text.replace("message StoredObject {\n", "message StoredObject {\n  optional string added_for_the_test = 9999;\n"),
    );
    expect(result).toEqual({ code: 0, output: "" });
  });
});
