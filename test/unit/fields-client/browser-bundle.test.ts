/**
 * The package's browser entry bundles for the browser: nothing on its path (the client, the
 * domain code it runs, the mapper) imports a Node built-in. One library guards its own: seedrandom
 * (under mathjs) maps `crypto` away in its package.json `browser` field. Ours maps re2-wasm, whose
 * WebAssembly cannot load on a page's main thread, to the re2js engine (re2-browser.ts).
 */
const GUARDED = ["node_modules/seedrandom/"];
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((m) => m.replaceAll("/", "\\/")).join("|")})(\\/.*)?$`);

describe("fields client in the browser", () => {
  it("imports no Node built-in outside seedrandom's guarded branch, and no re2-wasm", async () => {
    const { build } = await import("esbuild");
    const importers: { builtin: string; importer: string }[] = [];
    const { metafile } = await build({
      entryPoints: [fileURLToPath(new URL("../../../packages/client/src/fields-client/index.ts", import.meta.url))],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      conditions: ["source"],
      logLevel: "silent",
      metafile: true,
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
    const bundled = Object.keys(metafile.inputs);
    expect(bundled).toContain("src/domain/customfields/re2-browser.ts");
    expect(bundled.filter((file) => file.includes("node_modules/re2-wasm/"))).toEqual([]);
  }, 60_000);
});
