/**
 * `npm run bench`: starts its own stack (PostgreSQL, MinIO, Temporal, the API server and the
 * worker as child processes, data under .bench-data/run-<pid>, deleted at the end), runs every
 * benchmark group, prints one table and writes bench/results.json and bench/README-table.md.
 * Every figure has a baseline measured in the same run on the same machine (or, where named so,
 * a fixed reference such as the specification's 1-3 s); the ratio is ours ÷ baseline.
 * Benchmarks print figures; they never assert. A group that fails is reported and the rest run.
 *
 * Sizes (environment variables; the defaults keep a run to a few minutes on 2 cores):
 *   BENCH_INITIATE_CALLS=300          sequential InitiateUpload and /healthz calls (latency)
 *   BENCH_CONCURRENCY=16              callers of the throughput runs
 *   BENCH_THROUGHPUT_SECONDS=5        length of each throughput run
 *   BENCH_PUT_RUNS=20                 presigned PUTs and PutObjects per size (1 and 8 MiB)
 *   BENCH_PNG_RUNS=20                 complete-to-READY runs of the 100 KB PNG
 *   BENCH_PDF_RUNS=3                  complete-to-READY runs of the 20 MB PDF
 *   BENCH_CSV_MB=50                   size of the in-process CSV scan (MiB)
 *   BENCH_CSV_RUNS=3                  CSV scan runs
 *   BENCH_RESOLVE_SECONDS=2           length of each resolveForCreate round
 *   BENCH_CUSTOMERS=200000            customers of the filter query (1000000: the size)
 *   BENCH_FILTER_RUNS=50              runs of each filter query variant
 *   BENCH_AUDIT_ENTRIES=2000000       audit entries of one tenant for the audit search group
 *                                     (10000000: the size; each entry is sealed by the hash
 *                                     chain's trigger as it loads, about 0.36 ms here: 2 M in about
 *                                     12 minutes, 10 M in about an hour)
 *   BENCH_AUDIT_RUNS=30               runs of each audit search variant
 *   BENCH_CHAIN_ENTRIES=1000000       audit-chain: sealed entries of one tenant, exported and verified
 *                                     (sealed by the trigger as they load: about 6 minutes here)
 *   BENCH_CHAIN_BACKFILL_ENTRIES=200000  audit-chain: existing entries migration 0012 chains
 *   BENCH_CHAIN_SECONDS=5             audit-chain: each chain-on and chain-off turn of audit inserts
 *   BENCH_CHAIN_UPLOAD_SECONDS=15     audit-chain: each chain-on and chain-off turn of 100 KB uploads
 *   BENCH_CHAIN_ROUNDS=5              audit-chain: rounds of those turns, the order alternating
 *   BENCH_TIMER_MODE=seed             how the timers group makes its READY IMPORT_FILE objects:
 *                                     seed = rows inserted with one INSERT, an object in MinIO for
 *                                     each, workflows started as a retention change starts them
 *                                     (20-35 armed timers/s here, bounded by Temporal's SQLite);
 *                                     flow = the full upload flow, under 10 objects/s here
 *   BENCH_TIMER_OBJECTS=1500          objects held by retention timers (flow mode: 300). The
 *                                     issue's 10000 takes about 18 minutes in seed mode here
 *   BENCH_TIMER_RETENTION_SECONDS=20  flow mode: their retention (RETENTION_IMPORT_ARTIFACT_SECONDS);
 *                                     seed mode sets deadlines after the seeding a pilot predicts
 *   BENCH_LOAD_UPLOADS=1000           mixed uploads of the load group (valid and invalid, full flow)
 *   BENCH_PEER_SECONDS=5              uploads-peers: length of each engine's turn (ours, the floor, tusd,
 *                                     direct PutObject, …); each turn starts once the stack is idle again
 *   BENCH_PEER_ROUNDS=1               uploads-peers: passes over the balanced turn orders per file size
 *                                     (each engine follows every other equally often: 4 orders of the
 *                                     4 engines at 100 KB, 6 of the 6 at 8 MiB), after the saturation search; the default takes about 8 minutes
 *   BENCH_PEER_SEQUENTIAL=30          uploads-peers: sequential uploads per engine (complete-to-READY
 *                                     p50/p99 against tusd's final PATCH)
 *   BENCH_PEER_SWEEP_SECONDS=3        uploads-peers: turns of the search for each engine's saturation
 *                                     (rising client counts until one gains under 5%)
 *   BENCH_PEER_CLIENT_PROCESSES=4     uploads-peers: processes every engine's clients are spread over
 *   BENCH_MULTIPART_RUNS=3            multipart: timed 200 MiB uploads of each client (ours, lib-storage), alternating
 *   BENCH_ONLY=api,put,...            run only these groups: api, put, scan, csv, limits, fields, filter, audit, audit-chain, load,
 *                                     uploads-peers, multipart, timers (without a stack group, no stack is started).
 *                                     A partial run replaces its own figures in results.json and keeps the others
 *   BENCH_TEMPORAL_MODES=dev,server   the upload groups (put, scan, load, uploads-peers) run on each: the
 *                                     Temporal CLI's dev server, then the Temporal server on PostgreSQL
 *                                     (TEMPORAL_MODE=server); their figures are named for the mode
 *   BENCH_KEEP_DATA=1                 keep .bench-data/run-<pid>-<mode> (logs) after the run
 *   BENCH_CPU_PROF=dir                run the API server and the worker with --cpu-prof: each writes
 *                                     a .cpuprofile into dir when the stack stops (pids are logged)
 *   BENCH_NODE_OPTIONS="--flag"       Node flags for the API server and the worker only, to measure a
 *                                     tuning against a run without it
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { apiLatency } from "./api-latency.js";
import type { BenchGroup, StackContext } from "./context.js";
import { csvScan } from "./csv-scan.js";
import { customFields } from "./custom-fields.js";
import { dataPath } from "./data-path.js";
import type { Figure } from "./figure.js";
import { auditSearch } from "./audit-search.js";
import { auditChain } from "./audit-chain.js";
import { filterQuery } from "./filter-query.js";
import { limits } from "./limits.js";
import { describeMachine, machineLine } from "./machine.js";
import { readOptions, type BenchOptions } from "./options.js";
import { retentionTimers } from "./retention-timers.js";
import { load } from "./load.js";
import { multipart } from "./multipart.js";
import { scanLatency } from "./scan-latency.js";
import { uploadsPeers } from "./uploads-peers/group.js";
import { startBenchStack, type BenchStack, type TemporalMode } from "./stack.js";
import { mergeResults, type ResultsFile } from "./results-file.js";
import { progress } from "./support.js";
import { markdownTable, textTable } from "./table.js";

const GROUPS: BenchGroup[] = [apiLatency, dataPath, scanLatency, csvScan, limits, customFields, filterQuery, auditSearch, auditChain, load, uploadsPeers, multipart, retentionTimers];

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(benchDir);

function selectGroups(options: BenchOptions): BenchGroup[] {
  if (options.only.length === 0) return GROUPS;
  const unknown = options.only.filter((name) => !GROUPS.some((g) => g.name === name));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown group ${unknown.join(", ")} (${GROUPS.map((g) => g.name).join(", ")})`);
  return GROUPS.filter((g) => options.only.includes(g.name));
}

async function runGroups(
  groups: BenchGroup[],
  options: BenchOptions,
  stack: BenchStack | undefined,
): Promise<{ figures: Figure[]; failures: string[]; groupOf: Map<Figure, string> }> {
  const context: StackContext | undefined = stack && { stack, options, workerRssAtStartMb: stack.workerRssMb() };
  const figures: Figure[] = [];
  const failures: string[] = [];
  const groupOf = new Map<Figure, string>();
  for (const group of groups) {
    const started = Date.now();
    try {
      const produced = (group.kind === "stack" ? await group.run(context!) : await group.run(options)).map((f) => ({ ...f, group: group.name }));
      for (const f of produced) groupOf.set(f, group.name);
      figures.push(...produced);
      progress(`${group.name}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`${group.name}: ${message}`);
      progress(`${group.name}: FAILED ${message}`);
    }
  }
  return { figures, failures, groupOf };
}

function writeResults(figures: Figure[], machine: ReturnType<typeof describeMachine>, only: string[]): void {
  const target = path.join(benchDir, "results.json");
  const previous = existsSync(target) ? (JSON.parse(readFileSync(target, "utf8")) as ResultsFile) : undefined;
  const merged = mergeResults(previous, { machine, figures, groups: only.length > 0 ? only : undefined });
  // Written aside and renamed, so an interrupted run never leaves half a results.json.
  writeFileSync(`${target}.tmp`, `${JSON.stringify(merged, null, 2)}\n`);
  renameSync(`${target}.tmp`, target);
  writeFileSync(path.join(benchDir, "README-table.md"), markdownTable(merged.results, merged.machine, merged.partialRuns));
}

/** The groups whose figures depend on the Temporal server the uploads run through. */
const UPLOAD_GROUPS = new Set(["put", "scan", "load", "uploads-peers"]);
const MODE_NAMES: Record<TemporalMode, string> = { dev: "Temporal dev server", server: "Temporal server on PostgreSQL" };

function temporalModes(env: NodeJS.ProcessEnv): TemporalMode[] {
  const modes = (env.BENCH_TEMPORAL_MODES ?? "dev,server").split(",").map((m) => m.trim()).filter(Boolean);
  const unknown = modes.filter((m) => m !== "dev" && m !== "server");
  if (unknown.length > 0 || modes.length === 0) throw new Error(`BENCH_TEMPORAL_MODES: dev and/or server, got "${env.BENCH_TEMPORAL_MODES}"`);
  return modes as TemporalMode[];
}

/**
 * The first mode runs every selected group; each further mode runs the upload groups again on a
 * stack of its own. With more than one mode, upload figures carry their mode in their name.
 */
function plan(groups: BenchGroup[], modes: TemporalMode[]): { mode: TemporalMode; groups: BenchGroup[] }[] {
  const [first, ...others] = modes;
  return [{ mode: first, groups }, ...others.map((mode) => ({ mode, groups: groups.filter((g) => UPLOAD_GROUPS.has(g.name)) }))].filter((p) => p.groups.length > 0);
}

async function main(): Promise<number> {
  const options = readOptions(process.env);
  const groups = selectGroups(options);
  const modes = temporalModes(process.env);
  const machine = describeMachine();
  const started = Date.now();
  let stack: BenchStack | undefined;
  const interrupted = async (signal: NodeJS.Signals) => {
    progress(`${signal}: stopping the stack`);
    await stack?.stop();
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  const figures: Figure[] = [];
  const failures: string[] = [];
  try {
    for (const turn of plan(groups, modes)) {
      if (turn.groups.some((g) => g.kind === "stack")) {
        progress(`starting the stack (${MODE_NAMES[turn.mode]})`);
        const groupEnv = Object.assign({}, ...turn.groups.map((g) => (g.kind === "stack" ? g.stackEnv : undefined)));
        stack = await startBenchStack(root, { RETENTION_IMPORT_ARTIFACT_SECONDS: String(options.timerRetentionSeconds), ...groupEnv }, turn.mode);
        progress(`stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      const ran = await runGroups(turn.groups, options, stack);
      const label = (f: Figure) => (modes.length > 1 && UPLOAD_GROUPS.has(ran.groupOf.get(f) ?? "") ? { ...f, name: `${f.name} [${MODE_NAMES[turn.mode]}]` } : f);
      figures.push(...ran.figures.map(label));
      failures.push(...ran.failures);
      if (stack) progress("stopping the stack");
      await stack?.stop();
      stack = undefined;
    }
    console.log(`\n${machineLine(machine)}\n\n${textTable(figures)}\n`);
    writeResults(figures, machine, options.only);
    for (const failure of failures) console.error(`FAILED ${failure}`);
    progress(`total ${((Date.now() - started) / 1000).toFixed(0)} s; wrote bench/results.json and bench/README-table.md`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    await stack?.stop();
  }
}

process.exitCode = await main();
