/**
 * `npm test`: the whole suite in two lanes at once, each a sequence of npm scripts that stops at
 * its first failure. The integration tests on the Temporal dev server are the long lane, and most
 * of their time is spent waiting on timers and the stack; the other lane (lint, types, unit tests,
 * then the same lifecycle tests on the real Temporal server, on a stack of its own) uses the CPU
 * they leave idle. The Connect conformance suite runs last, alone: its runner gives each server
 * it starts 10 s to answer. Each line of output carries its lane's name; a summary of every
 * step's outcome and duration ends the run, and the exit code is non-zero when any step failed.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

interface Step {
  script: string;
  outcome?: "passed" | "failed" | "skipped";
  seconds?: number;
}

const LANES: Record<string, string[]> = {
  integration: ["test:integration"],
  checks: ["lint:proto", "lint:breaking", "lint", "typecheck", "test:unit", "test:temporal-server"],
};
const LAST: Record<string, string[]> = { conformance: ["test:conformance"] };

function run(lane: string, step: Step): Promise<boolean> {
  const started = performance.now();
  process.stdout.write(`[${lane}] ▶ npm run ${step.script}\n`);
  const child = spawn("npm", ["run", "-s", step.script], { stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => process.stdout.write(`[${lane}] ${line}\n`));
  }
  return new Promise((resolve) => {
    child.once("close", (code) => {
      step.seconds = Math.round((performance.now() - started) / 1000);
      step.outcome = code === 0 ? "passed" : "failed";
      process.stdout.write(`[${lane}] ${code === 0 ? "✓" : "✗"} npm run ${step.script} (${step.seconds} s)\n`);
      resolve(code === 0);
    });
  });
}

async function runLane(lane: string, steps: Step[]): Promise<void> {
  for (const step of steps) {
    if (steps.some((s) => s.outcome === "failed")) step.outcome = "skipped";
    else await run(lane, step);
  }
}

const lanesOf = (scripts: Record<string, string[]>) => Object.entries(scripts).map(([lane, names]) => ({ lane, steps: names.map((script): Step => ({ script })) }));
const lanes = lanesOf(LANES);
const last = lanesOf(LAST);
await Promise.all(lanes.map(({ lane, steps }) => runLane(lane, steps)));
for (const { lane, steps } of last) await runLane(lane, steps);

process.stdout.write("\nnpm test:\n");
for (const { lane, steps } of [...lanes, ...last]) {
  for (const step of steps) process.stdout.write(`  ${lane.padEnd(12)} ${step.script.padEnd(22)} ${step.outcome}${step.seconds === undefined ? "" : ` (${step.seconds} s)`}\n`);
}
process.exitCode = [...lanes, ...last].some(({ steps }) => steps.some((s) => s.outcome !== "passed")) ? 1 : 0;
