import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cachedToolPath, cacheBuiltTool, restoreCachedTool, toolsCacheDir } from "../../../src/stack/tools-cache.js";
import { temporaryDirs } from "../../support/temporary-dirs.js";

const tempDir = temporaryDirs("tools-cache-");
const saved = process.env.FILES_AND_FIELDS_TOOLS_CACHE;
afterEach(() => {
  if (saved === undefined) delete process.env.FILES_AND_FIELDS_TOOLS_CACHE;
  else process.env.FILES_AND_FIELDS_TOOLS_CACHE = saved;
});

describe("toolsCacheDir", () => {
  it("is under the user's cache folder unless moved or turned off", () => {
    expect(toolsCacheDir({ XDG_CACHE_HOME: "/c" })).toBe(path.join("/c", "files-and-fields", "go-tools"));
    expect(toolsCacheDir({ FILES_AND_FIELDS_TOOLS_CACHE: "/elsewhere" })).toBe("/elsewhere");
    expect(toolsCacheDir({ FILES_AND_FIELDS_TOOLS_CACHE: "off" })).toBeUndefined();
  });
});

describe("cachedToolPath", () => {
  it("keeps one binary per module and version, and none for an unpinned version", () => {
    expect(cachedToolPath("go.temporal.io/server/cmd/server@v1.29.1", "/c")).toBe("/c/go.temporal.io/server/cmd/server/v1.29.1/server");
    expect(cachedToolPath("github.com/temporalio/ui-server/v2/cmd/server@v2.42.1", "/c")).toBe("/c/github.com/temporalio/ui-server/v2/cmd/server/v2.42.1/server");
    expect(cachedToolPath("github.com/minio/minio@latest", "/c")).toBeUndefined();
    process.env.FILES_AND_FIELDS_TOOLS_CACHE = "off";
    expect(cachedToolPath("github.com/x/y@v1.0.0")).toBeUndefined();
  });
});

describe("a build kept for another clone", () => {
  it("is copied, still executable, into a clone that has none", () => {
    process.env.FILES_AND_FIELDS_TOOLS_CACHE = tempDir();
    const built = path.join(tempDir(), "temporal");
    writeFileSync(built, "#!/bin/sh\necho built\n");
    chmodSync(built, 0o755);
    const key = "github.com/temporalio/cli/cmd/temporal@v1.5.1";
    const target = path.join(tempDir(), ".tools", "bin", "temporal");

    expect(restoreCachedTool(key, target)).toBe(false);
    expect(cacheBuiltTool(key, built, () => undefined)).toBe(built);
    expect(restoreCachedTool(key, target)).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("#!/bin/sh\necho built\n");
    expect(statSync(target).mode & 0o111).not.toBe(0);
    // Another version is another build.
    expect(restoreCachedTool("github.com/temporalio/cli/cmd/temporal@v1.5.2", `${target}2`)).toBe(false);
  });

  it("is not kept where the cache cannot be written, and the build still counts", () => {
    const blocked = tempDir();
    mkdirSync(path.join(blocked, "go-tools"));
    writeFileSync(path.join(blocked, "go-tools", "github.com"), "a file where a folder must go");
    process.env.FILES_AND_FIELDS_TOOLS_CACHE = path.join(blocked, "go-tools");
    const built = path.join(tempDir(), "grpcurl");
    writeFileSync(built, "#!/bin/sh\n");
    chmodSync(built, 0o755);
    const lines: string[] = [];
    expect(cacheBuiltTool("github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.4", built, (line) => lines.push(line))).toBe(built);
    expect(lines.join("\n")).toMatch(/could not keep/);
  });
});
