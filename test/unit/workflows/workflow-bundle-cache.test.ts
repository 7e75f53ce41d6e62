import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundleKey, cachedWorkflowBundle } from "../../../src/adapters/temporal/workflow-bundle-cache.js";
import { temporaryDirs } from "../../support/temporary-dirs.js";

const tempDir = temporaryDirs("workflow-bundles-");

function project(files: Record<string, string>): string {
  const root = tempDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe("bundleKey", () => {
  const sources = { "package-lock.json": "{}", "workflows/index.ts": "export {}", "src/domain/rule.ts": "export const a = 1;", "src/notes.md": "not a source" };

  it("changes with any source under workflows/ or src/, the lock file or the interceptors, and nothing else", async () => {
    const key = await bundleKey([], project(sources));
    expect(await bundleKey([], project(sources))).toBe(key);
    expect(await bundleKey([], project({ ...sources, "src/notes.md": "edited" }))).toBe(key);
    expect(await bundleKey([], project({ ...sources, "src/domain/rule.ts": "export const a = 2;" }))).not.toBe(key);
    expect(await bundleKey([], project({ ...sources, "workflows/more.ts": "export {}" }))).not.toBe(key);
    expect(await bundleKey([], project({ ...sources, "package-lock.json": "{ \"v\": 2 }" }))).not.toBe(key);
    expect(await bundleKey(["tracing-interceptors.js"], project(sources))).not.toBe(key);
  });
});

describe("cachedWorkflowBundle", () => {
  it("bundles once per set of inputs and reads the kept bundle after that", async () => {
    const cache = tempDir();
    let builds = 0;
    const build = async () => ({ code: `bundle ${++builds}` });
    expect(await cachedWorkflowBundle(cache, [], build)).toEqual({ code: "bundle 1" });
    expect(await cachedWorkflowBundle(cache, [], build)).toEqual({ code: "bundle 1" });
    expect(await cachedWorkflowBundle(cache, ["tracing-interceptors.js"], build)).toEqual({ code: "bundle 2" });
    expect(builds).toBe(2);
    // No temporary file is left beside the bundles.
    expect(readdirSync(cache).filter((name) => !/^workflows-[0-9a-f]{32}\.js$/.test(name))).toEqual([]);
  });

  it("bundles at every start without a cache folder", async () => {
    let builds = 0;
    const build = async () => ({ code: `bundle ${++builds}` });
    await cachedWorkflowBundle(undefined, [], build);
    await cachedWorkflowBundle(undefined, [], build);
    expect(builds).toBe(2);
  });
});
