/**
 * `npm pack` (prepack): what a consumer of the tarball gets in dist/; `--clean` (postpack) removes it. In this repository every
 * import resolves to the TypeScript sources instead (the "source" export condition), so nothing
 * here runs in development and no dist/ can go stale there.
 *
 * - gen/ is transpiled file by file: one copy of each descriptor, shared by all entries.
 * - Each entry is bundled with esbuild. npm packages and the package's own gen/ (imported by its
 *   name) stay imports; relative imports are inlined, among them the server's pure code that the
 *   uploader and the fields client check with (src/domain, src/contract, the rule context), which
 *   a tarball could not reach otherwise. The browser entries take package.json's `browser`
 *   mapping of the repository (re2js in place of re2-wasm), which runs in Node too.
 * - Declarations come from tsc; rootDir is the repository because the inlined code's types are
 *   part of the entries' signatures.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build, type BuildOptions } from "esbuild";

const packageDir = path.resolve(import.meta.dirname, "..");
const dist = path.join(packageDir, "dist");
const from = (file: string): string => path.join(packageDir, file);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const bundles: BuildOptions = {
  bundle: true,
  format: "esm",
  target: "es2022",
  packages: "external",
  conditions: ["source"],
  outdir: dist,
  logLevel: "warning",
};

rmSync(dist, { recursive: true, force: true });
// postpack: the tarball is written, and dist/ must not outlive it.
if (process.argv.includes("--clean")) process.exit(0);
await build({ entryPoints: filesUnder(from("gen")), outbase: from("gen"), outdir: path.join(dist, "gen"), format: "esm", target: "es2022", logLevel: "warning" });
await build({
  ...bundles,
  platform: "browser",
  splitting: true,
  entryPoints: {
    browser: from("src/clients/browser.ts"),
    "browser-uploader": from("src/browser-uploader/index.ts"),
    uppy: from("src/uppy/index.ts"),
    "fields-client": from("src/fields-client/index.ts"),
  },
});
await build({
  ...bundles,
  platform: "node",
  entryPoints: { node: from("src/clients/node.ts"), "fields-client-file-store": from("src/fields-client/file-store.ts") },
});
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", from("tsconfig.build.json")], { stdio: "inherit" });
console.log(`built ${path.relative(process.cwd(), dist)}`);
