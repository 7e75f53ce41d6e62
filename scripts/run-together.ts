/**
 * Runs shell commands at the same time, at most JOBS at once (two by default: each is one busy
 * process or a lane of tests that mostly waits, and CI machines have at least two cores), and
 * exits with the first failure's code once all have ended. The first command's output streams as
 * it comes; each other command's is printed whole when it ends, so that no two commands' lines
 * interleave.
 *
 *   tsx scripts/run-together.ts "tsc --noEmit" "eslint ." knip
 */
import { spawn } from "node:child_process";

const commands = process.argv.slice(2);
const jobs = Number(process.env.JOBS ?? 2);
if (commands.length === 0 || !Number.isInteger(jobs) || jobs < 1) {
  process.stderr.write('usage: [JOBS=n] tsx scripts/run-together.ts "<command>" ["<command>" ...]\n');
  process.exit(2);
}

async function run(command: string, streamed: boolean): Promise<number> {
  const started = Date.now();
  const child = spawn(command, { shell: true, stdio: ["ignore", streamed ? "inherit" : "pipe", streamed ? "inherit" : "pipe"] });
  const output: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
  const code = await new Promise<number>((resolve) => child.once("close", (exit) => resolve(exit ?? 1)));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (output.length > 0) process.stdout.write(Buffer.concat(output));
  process.stdout.write(`${code === 0 ? "ok" : `FAILED (exit code ${code})`}  ${command}  (${seconds} s)\n`);
  return code;
}

const queue = commands.map((command, index) => ({ command, streamed: index === 0 }));
const codes: number[] = [];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) codes.push(await run(next.command, next.streamed));
  }),
);
process.exitCode = codes.find((code) => code !== 0) ?? 0;
