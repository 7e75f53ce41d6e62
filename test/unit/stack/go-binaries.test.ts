import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBinary, findOnPath } from "../../../src/stack/go-binaries.js";
import { temporaryDirs } from "../../support/temporary-dirs.js";

const tempDir = temporaryDirs("go-binaries-");

describe("findOnPath", () => {
  it("finds only executable files", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "plain"), "");
    writeFileSync(path.join(dir, "tool"), "#!/bin/sh\n");
    chmodSync(path.join(dir, "tool"), 0o755);
    expect(findOnPath("tool", `/nonexistent${path.delimiter}${dir}`)).toBe(path.join(dir, "tool"));
    expect(findOnPath("plain", dir)).toBeUndefined();
    expect(findOnPath("missing", dir)).toBeUndefined();
  });
});

describe("ensureBinary", () => {
  // A binary on PATH wins, so this can only be checked where minio is not on PATH.
  it.skipIf(findOnPath("minio") !== undefined)("uses <projectRoot>/.tools/bin when not on PATH", async () => {
    const root = tempDir();
    const bin = path.join(root, ".tools", "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, "minio"), "#!/bin/sh\n");
    chmodSync(path.join(bin, "minio"), 0o755);
    const lines: string[] = [];
    expect(await ensureBinary("minio", { projectRoot: root, log: (line) => lines.push(line) })).toBe(
      path.join(bin, "minio"),
    );
    expect(lines).toEqual([]);
  });

  // Two of them are Go packages called `server`: each lives in its own folder.
  it.skipIf(findOnPath("temporal-ui-server") !== undefined)("uses .tools/<name>/bin/<package> for the Temporal server's binaries", async () => {
    const root = tempDir();
    const bin = path.join(root, ".tools", "temporal-ui-server", "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, "server"), "#!/bin/sh\n");
    chmodSync(path.join(bin, "server"), 0o755);
    const lines: string[] = [];
    expect(await ensureBinary("temporal-ui-server", { projectRoot: root, log: (line) => lines.push(line) })).toBe(
      path.join(bin, "server"),
    );
    expect(lines).toEqual([]);
  });
});
