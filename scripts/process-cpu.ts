/**
 * Runs a command and reports where its CPU went, per kind of process: every process that inherited
 * this run's tag in its environment (so also daemons the command started and that left its tree,
 * such as PostgreSQL), sampled from /proc/<pid>/stat twice a second until the command exits.
 *
 *   node --import tsx scripts/process-cpu.ts npx vitest run --project integration test/integration/load.test.ts
 *
 * Linux only. A process's last sample counts, so one killed between samples loses at most 0.5 s.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

const TAG = `PROCESS_CPU_TAG=${randomUUID()}`;
const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

interface Sample {
  label: string;
  ticks: number;
}

/** By pid and start time: a pid reused by another process is another process. */
const samples = new Map<string, Sample>();

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/** The few process kinds of this project, by their command line. */
function labelOf(cmdline: string, comm: string): string {
  if (cmdline.includes("src/main/server.ts")) return "api";
  if (cmdline.includes("src/main/worker.ts")) return "worker";
  if (cmdline.includes("vitest")) return "vitest (test client)";
  if (/temporal\b.*server start-dev/.test(cmdline)) return "temporal dev server";
  if (comm.startsWith("postgres") || cmdline.startsWith("postgres")) return "postgres";
  if (comm === "minio") return "minio";
  return comm;
}

interface Stat {
  comm: string;
  ppid: number;
  ticks: number;
  key: string;
}

function statOf(pid: number): Stat | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // comm may contain spaces and parentheses: the fields after it start after the last ")".
  const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { comm, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), key: `${pid}:${fields[19]}` }; // utime + stime, starttime
}

/**
 * Ours: tagged, or a descendant of one of ours. PostgreSQL writes its process titles over its
 * environment, so its backends are found through their parent.
 */
function sample(): void {
  const stats = new Map<number, Stat>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const stat = statOf(Number(entry));
    if (stat) stats.set(Number(entry), stat);
  }
  const ours = new Set([...stats.keys()].filter((pid) => samples.has(stats.get(pid)!.key) || read(`/proc/${pid}/environ`)?.split("\0").includes(TAG)));
  for (let grown = true; grown; ) {
    grown = false;
    for (const [pid, stat] of stats) {
      if (!ours.has(pid) && ours.has(stat.ppid)) {
        ours.add(pid);
        grown = true;
      }
    }
  }
  for (const pid of ours) {
    const { comm, ticks, key } = stats.get(pid)!;
    const label = samples.get(key)?.label ?? labelOf((read(`/proc/${pid}/cmdline`) ?? "").replaceAll("\0", " "), comm);
    samples.set(key, { label, ticks });
  }
}

function report(wallSeconds: number): void {
  const byLabel = new Map<string, { processes: number; seconds: number }>();
  for (const { label, ticks } of samples.values()) {
    const row = byLabel.get(label) ?? { processes: 0, seconds: 0 };
    row.processes++;
    row.seconds += ticks / ticksPerSecond;
    byLabel.set(label, row);
  }
  const total = [...byLabel.values()].reduce((sum, r) => sum + r.seconds, 0);
  console.log(`\nCPU by process kind (wall ${wallSeconds.toFixed(0)} s, CPU ${total.toFixed(1)} s)\n`);
  console.log("| process | count | CPU s | share |");
  console.log("|---|---:|---:|---:|");
  for (const [label, row] of [...byLabel.entries()].sort((a, b) => b[1].seconds - a[1].seconds)) {
    if (row.seconds < 0.05) continue;
    console.log(`| ${label} | ${row.processes} | ${row.seconds.toFixed(1)} | ${((100 * row.seconds) / total).toFixed(0)}% |`);
  }
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: process-cpu.ts <command> [args...]");
  process.exit(2);
}
const started = Date.now();
const [tagName, tagValue] = TAG.split("=");
const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, [tagName]: tagValue } });
const timer = setInterval(sample, 500);
child.on("exit", (code) => {
  clearInterval(timer);
  sample();
  report((Date.now() - started) / 1000);
  process.exit(code ?? 1);
});
