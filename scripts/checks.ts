/**
 * The static checks of `npm test`, two at a time (each is one busy process, and CI machines have
 * at least two cores): the contract (buf lint, buf breaking), ESLint and knip, and tsc. A check's
 * output is printed when it ends, whole, so that two checks' lines never interleave; the exit code
 * is the first failure's, after all have ended.
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

interface Check {
  name: string;
  command: string;
}

// Longest first, so that the short ones fill in beside them.
const CHECKS: Check[] = [
  { name: "tsc", command: "tsc --noEmit" },
  { name: "eslint", command: "eslint ." },
  { name: "knip", command: "knip" },
  { name: "buf lint", command: "npm run -s lint:proto" },
  { name: "buf breaking", command: "npm run -s lint:breaking" },
];

async function run(check: Check): Promise<number> {
  const started = Date.now();
  const child = spawn(check.command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
  const output: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
  const code = await new Promise<number>((resolve) => child.once("close", (exit) => resolve(exit ?? 1)));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`${code === 0 ? "ok" : "FAILED"}  ${check.name} (${check.command}, ${seconds} s)\n`);
  if (code !== 0 || output.length > 0) process.stdout.write(Buffer.concat(output));
  return code;
}

const queue = [...CHECKS];
const codes: number[] = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), 2) }, async () => {
    for (let check = queue.shift(); check; check = queue.shift()) codes.push(await run(check));
  }),
);
process.exitCode = codes.find((code) => code !== 0) ?? 0;
