/**
 * The package's browser entry bundles for the browser: nothing on its path (the client, the
 * domain code it runs, the mapper) imports a Node built-in. Two libraries guard theirs: re2-wasm's
 * Emscripten runtime calls `require("fs")`/`require("path")` only in its Node branch, and
 * seedrandom (under mathjs) maps `crypto` away in its package.json `browser` field. This checks
 * imports only: re2-wasm's runtime limits in a browser are described in docs/fields-client.md.
 */
const GUARDED = ["node_modules/re2-wasm/", "node_modules/seedrandom/"];
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((m) => m.replaceAll("/", "\\/")).join("|")})(\\/.*)?$`);

describe("fields client in the browser", () => {
  it("imports no Node built-in outside the guarded branches of two libraries", async () => {
    const { build } = await import("esbuild");
    const importers: { builtin: string; importer: string }[] = [];
    await build({
      entryPoints: [fileURLToPath(new URL("../../../src/fields-client/index.ts", import.meta.url))],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      logLevel: "silent",
      plugins: [
        {
          name: "record-builtins",
          setup(b) {
            b.onResolve({ filter: BUILTIN }, (args) => {
              importers.push({ builtin: args.path, importer: args.importer });
              return { path: args.path, external: true };
            });
          },
        },
      ],
    });
    expect(importers.filter((i) => !GUARDED.some((dir) => i.importer.includes(dir)))).toEqual([]);
  }, 60_000);
});
