/**
 * Generates TypeScript for the Connect conformance suite's protos (connectrpc.conformance.v1) into
 * .conformance/gen (not committed), for test/conformance. The .proto files are read where Go keeps
 * the pinned module (`go mod download`, which fetches it when the runner was found on PATH and never
 * built here): the suite's contract is not copied into this repository. Idempotent: a stamp names
 * the version generated.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CONFORMANCE, findGo } from "../src/stack/go-binaries.js";

const root = process.cwd();
const out = path.join(root, ".conformance", "gen");
const stamp = path.join(out, "VERSION");
const wanted = `${CONFORMANCE.module}@${CONFORMANCE.version}`;

if (existsSync(stamp) && readFileSync(stamp, "utf8").trim() === wanted) {
  console.log(`conformance code for ${wanted}: ${out}`);
} else {
  const go = findGo();
  if (!go) throw new Error(`Go is needed to fetch ${wanted} (its .proto files); install Go >= 1.24 (https://go.dev/dl/)`);
  const module = JSON.parse(execFileSync(go, ["mod", "download", "-json", wanted], { cwd: root, encoding: "utf8" })) as { Dir?: string; Error?: string };
  if (!module.Dir) throw new Error(`go mod download ${wanted}: ${module.Error ?? "no directory"}`);
  const template = { version: "v2", plugins: [{ local: "protoc-gen-es", out, opt: ["target=ts", "import_extension=js"] }] };
  rmSync(out, { recursive: true, force: true });
  // buf and protoc-gen-es are this project's npm binaries.
  const bin = path.join(root, "node_modules", ".bin");
  execFileSync(path.join(bin, "buf"), ["generate", path.join(module.Dir, "proto"), "--template", JSON.stringify(template)], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` },
  });
  writeFileSync(stamp, `${wanted}\n`);
  console.log(`conformance code for ${wanted} generated: ${out}`);
}
