/**
 * The Connect conformance suite (connectrpc.com/conformance) against the front door: its runner
 * sends every server test case its config allows, over gRPC, gRPC-Web and Connect, to
 * test/conformance/server.ts, and fails on any case that fails unless known-failing.txt lists it
 * (and then on any listed case that passes). docs/clients.md says how to run it by hand.
 */
import { execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { ensureBinary } from "../../src/stack/go-binaries.js";

const root = path.resolve(import.meta.dirname, "../..");
const here = path.relative(root, import.meta.dirname);
const tsx = path.join(root, "node_modules", ".bin", "tsx");
let runner: string;

beforeAll(async () => {
  runner = await ensureBinary("connectconformance", { projectRoot: root, log: (line) => console.log(line) });
  // The suite's TypeScript, from the .proto files of the runner's module (not committed).
  execFileSync(tsx, ["scripts/conformance-code.ts"], { cwd: root, stdio: "inherit" });
}, 600_000);

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(runner, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

it("passes every server case of the Connect conformance suite but the known-failing ones", async () => {
  const started = performance.now();
  const { code, output } = await run([
    "--mode",
    "server",
    "--conf",
    path.join(here, "config.yaml"),
    "--known-failing",
    `@${path.join(here, "known-failing.txt")}`,
    // One server starting at a time: four compiling TypeScript at once on two cores can miss the
    // runner's 10 s limit for the server's first answer.
    "--max-servers",
    "1",
    "--",
    // This Node (the project's), whatever `node` is first on PATH.
    process.execPath,
    "--import",
    "tsx",
    path.join(here, "server.ts"),
  ]);
  const summary = output.trimEnd().split("\n").slice(-3).join("\n");
  console.log(`connectconformance (${Math.round((performance.now() - started) / 1000)} s):\n${summary}`);
  // The runner's own account of each failing case (its INFO lines list the known failures).
  const failures = output.split(/\n(?=\S)/).filter((block) => !block.startsWith("INFO: ")).join("\n");
  expect(code, failures.length > 20_000 ? `${failures.slice(0, 20_000)}\n...\n${summary}` : failures).toBe(0);
});
