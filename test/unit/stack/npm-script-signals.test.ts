import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { npmScriptCommand } from "../../support/npm-script.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const FIXTURE = "test/fixtures/processes/busy-at-signal.ts";

/** Runs a script's command line with its entry file replaced by the fixture, Ctrl-C once it is ready. */
function interruptedWhileBusy(script: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const words = npmScriptCommand(root, script);
  words[words.findIndex((word) => word.startsWith("src/main/"))] = FIXTURE;
  const [command, ...args] = words;
  const child = spawn(command, args, {
    cwd: root,
    // As npm runs it: the project's Node and tsx first on PATH.
    env: { ...process.env, PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}` },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve) => {
    const take = (chunk: Buffer) => {
      const ready = !/^ready$/m.test(output);
      output += chunk.toString("utf8");
      // A terminal's Ctrl-C: SIGINT to the whole foreground process group.
      if (ready && /^ready$/m.test(output)) process.kill(-child.pid!, "SIGINT");
    };
    child.stdout!.on("data", take);
    child.stderr!.on("data", take);
    child.once("close", (code, signal) => resolve({ code, signal, output }));
  });
}

// tsx's CLI relays a signal to its child and kills the child (SIGKILL) when it has not answered
// within 60 ms: `npm start` busy at Ctrl-C died at once and left PostgreSQL, MinIO, Temporal and
// the rest running (start-sigint.test.ts, one CI run); a worker sent SIGTERM would not drain.
describe("the long-running npm scripts", () => {
  it.each(["start", "stack", "server", "worker"])("%s: Ctrl-C while the event loop is busy still stops gracefully", { timeout: 30_000 }, async (script) => {
    const { code, output } = await interruptedWhileBusy(script);
    expect(output).toContain("stopped gracefully");
    expect(code).toBe(0);
  });
});
