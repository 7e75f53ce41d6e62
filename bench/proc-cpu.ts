/**
 * CPU time of the stack's processes from /proc (Linux only): utime + stime of each process and of
 * its live descendants, plus cutime + cstime (children that exited and were waited for), so a
 * process tree's total stays right while backends come and go. Processes are found among this
 * process's children by what they run, as bench/stack.ts finds the worker.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Every component counted; `floor`: the worker of the Temporal floor (bench/temporal-floor/worker.ts). */
export const COMPONENTS = ["api", "worker", "temporal", "postgres", "minio", "clamd", "tusd", "floor"] as const;
export type Component = (typeof COMPONENTS)[number];

/** Zero CPU for every component. */
export const emptyCpu = (): Record<Component, number> => Object.fromEntries(COMPONENTS.map((c) => [c, 0])) as Record<Component, number>;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in clock ticks. */
  ticks: number;
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  return ticksPerSecond;
}

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // exited meanwhile
  }
  // The command name (field 2) is in parentheses and may hold spaces: split after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state); ppid is field 4, utime..cstime are fields 14-17.
  const ppid = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return { pid, ppid, ticks };
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

/** What one of our direct children is, from its command line (undefined: not a stack process). */
function classify(pid: number): Component | undefined {
  const args = commandLine(pid);
  if (args.includes("src/main/server.ts")) return "api";
  if (args.includes("src/main/worker.ts")) return "worker";
  if (args.includes("bench/temporal-floor/worker.ts")) return "floor";
  const executable = args.split(" ")[0] ?? "";
  const program = path.basename(executable);
  // The CLI's dev server, or the Temporal server of TEMPORAL_MODE=server (.tools/temporal-server/bin/server).
  if (program === "temporal" || executable.endsWith("temporal-server/bin/server")) return "temporal";
  if (program === "minio") return "minio";
  if (program === "postgres" || program === "postmaster") return "postgres";
  if (program === "tusd") return "tusd";
  if (program === "clamd") return "clamd";
  return undefined;
}

function allStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) stats.push(stat);
  }
  return stats;
}

/** CPU milliseconds each component has used so far (its whole process tree). */
export function cpuSnapshot(): Record<Component, number> {
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) {
    const list = children.get(stat.ppid) ?? [];
    list.push(stat);
    children.set(stat.ppid, list);
  }
  const treeTicks = (root: ProcStat): number => (children.get(root.pid) ?? []).reduce((sum, child) => sum + treeTicks(child), root.ticks);
  const totals = emptyCpu();
  for (const child of children.get(process.pid) ?? []) {
    const component = classify(child.pid);
    if (component) totals[component] += (treeTicks(child) * 1000) / clockTicks();
  }
  return totals;
}

/** Which components were found (a missing one would read as zero CPU). */
export function componentsFound(): Component[] {
  const found = new Set<Component>();
  for (const stat of allStats()) {
    if (stat.ppid !== process.pid) continue;
    const component = classify(stat.pid);
    if (component) found.add(component);
  }
  return [...found];
}

export function cpuDelta(before: Record<Component, number>, after: Record<Component, number>): Record<Component, number> {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as Component]])) as Record<Component, number>;
}

/** The bench process's own CPU (ms): the clients, which share the machine with the servers. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * CPU (ms) of this process's children that exited and were waited for (cutime + cstime of
 * /proc/self/stat): a child process's whole CPU time, read as the difference around its run.
 */
export function reapedChildrenCpuMs(): number {
  const text = readFileSync("/proc/self/stat", "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicks();
}
