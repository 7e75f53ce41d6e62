/**
 * The uploads-peers group's figures from what its turns measured. Headline ratios against the
 * Temporal floor (100 KB) and read-back into clamd (8 MiB): throughput at each engine's own
 * saturation, and uploads per CPU-second of the whole stack net of idle (cost per core). Client
 * CPU is reported per engine and left out of every stack's.
 */
import { balancedOrders } from "../balanced-order.js";
import { baseline, figure, type Figure } from "../figure.js";
import { MINIO_REQUESTS_METRIC, MINIO_REQUESTS_PATH } from "../minio-metrics.js";
import type { Component } from "../proc-cpu.js";
import { mean, percentile } from "../stats.js";
import type { EngineName, Payload } from "./engines.js";
import { describeSaturation, type Saturation } from "./saturation.js";
import type { Sequential } from "./sequential.js";
import type { Tally } from "./turns.js";

/** READY objects' lifecycle workflows, as read after the turns. */
export interface Histories {
  events: number[];
  transitions: number[];
  statuses: string[];
}

export interface SizeRun {
  file: Payload;
  tallies: Map<EngineName, Tally>;
  saturations: Map<EngineName, Saturation>;
  /** Ours' objects not READY when complete answered, by their status at the end. */
  left: Map<string, number>;
}

export interface Measured {
  small: SizeRun;
  large: SizeRun;
  seq: Sequential;
  history: Histories;
  floorHistory: Histories;
  options: { peerSeconds: number; peerRounds: number; peerSequential: number; peerSweepSeconds: number; peerClientProcesses: number };
  tusdName: string;
  missing: Component[];
  /** CPU ms per second with nothing running, mean of the idle windows before and after. */
  idle: Record<Component, number>;
  idleSeconds: number;
  requestsProblem?: string;
}

/** The stack of ours: everything an upload passes through (clamd scans it). */
const OUR_STACK: Component[] = ["api", "worker", "temporal", "postgres", "minio", "clamd"];
const FLOOR_STACK: Component[] = ["floor", "temporal", "postgres"];
/** Temporal server default (limit.historyCount.error), the fixed reference of the history row. */
const TEMPORAL_HISTORY_EVENTS_LIMIT = 51_200;

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

export function figures(m: Measured): Figure[] {
  const { small, large, seq, history, options, idle, tusdName } = m;
  const t = (run: SizeRun, engine: EngineName) => run.tallies.get(engine)!;
  const perSecond = (tally: Tally) => tally.client.uploads / tally.seconds;
  // CPU per upload: raw, and net of what each component burns idle over the same window.
  const raw = (tally: Tally, cs: Component[]) => cs.reduce((sum, c) => sum + tally.cpu[c], 0) / tally.client.uploads;
  const net = (tally: Tally, cs: Component[]) => cs.reduce((sum, c) => sum + tally.cpu[c] - idle[c] * tally.windowSeconds, 0) / tally.client.uploads;
  const clientCpu = (tally: Tally) => tally.client.cpuMs / tally.client.uploads;
  const idleOf = (cs: Component[]) => cs.reduce((sum, c) => sum + idle[c], 0);
  const netNote = (tally: Tally, cs: Component[]) => `net of idle ${fmt(net(tally, cs))} ms (idle ${fmt(idleOf(cs))} ms CPU/s × ${fmt(tally.windowSeconds / tally.client.uploads, 3)} s per upload)`;

  const turnsOf = (run: SizeRun) => options.peerRounds * balancedOrders([...run.tallies.keys()]).length;
  const engineNote = (run: SizeRun) =>
    [...run.tallies.entries()]
      .map(([e, tally]) => `${e} ${tally.clients} clients (sweep ${describeSaturation(run.saturations.get(e)!)} uploads/s), waited ${fmt(tally.settleSeconds / turnsOf(run))} s after a turn, clients' CPU ${fmt(clientCpu(tally))} ms per upload`)
      .join("; ");
  const schedule = (run: SizeRun) =>
    `each engine at its saturation, found by ${options.peerSweepSeconds} s turns at rising client counts (until one gains under 5% or errs); then ${turnsOf(run)} turns × ${options.peerSeconds} s per engine, each engine following every other equally often, each turn starting once the worker, Temporal and PostgreSQL are back at idle CPU; clients in ${options.peerClientProcesses} processes of their own, their CPU outside every stack's; rate = uploads ÷ time until the turn's last upload answered. ${engineNote(run)}`;
  const outcome = (tally: Tally, left: Map<string, number>) => {
    const c = tally.client;
    const still = [...left.entries()].map(([status, n]) => `${n} ${status}`).join(", ");
    const notReady = c.notReady.length === 0 ? "0 not READY" : `${c.notReady.length} not READY when complete answered (still not READY at the end: ${still || "none"})`;
    return `ours: ${c.uploads} READY, ${c.errors} errors, ${notReady}${c.firstError ? ` (first error: ${c.firstError.slice(0, 120)})` : ""}`;
  };
  const peerOutcome = (name: string, tally: Tally) => `${name}: ${tally.client.uploads} stored, ${tally.client.errors} errors${tally.client.firstError ? ` (first error: ${tally.client.firstError.slice(0, 120)})` : ""}`;
  const stepNote = (tally: Tally) => {
    const c = tally.client;
    const n = c.uploads + c.notReady.length;
    return `ours per upload: initiate ${fmt(c.steps.initiateMs / n, 0)} ms, PUT ${fmt(c.steps.putMs / n, 0)} ms, complete ${fmt(c.steps.completeMs / n, 0)} ms (means)`;
  };
  const rate = (run: SizeRun, engine: EngineName, name: string) => baseline(`${name} at ${t(run, engine).clients} clients`, perSecond(t(run, engine)), "uploads/s");
  const oursName = (run: SizeRun, what = "ours, to READY") => `Uploads/s at saturation, ${run.file.label} (${what})`;
  const oursRate = (run: SizeRun) => perSecond(t(run, "ours"));

  const throughputRows = (run: SizeRun): Figure[] => {
    const tusdRate = rate(run, "tusd", `${tusdName}, to stored`);
    const directRate = rate(run, "direct", "direct PutObject, SSE AES256");
    const mb = (tally: Tally) => `${fmt((perSecond(tally) * run.file.bytes.length) / 1e6)} MB/s`;
    const counts = `${schedule(run)}. ${outcome(t(run, "ours"), run.left)}; ${peerOutcome("tusd", t(run, "tusd"))}; ${peerOutcome("direct", t(run, "direct"))}`;
    return [
      figure(oursName(run), oursRate(run), "uploads/s", tusdRate, counts),
      figure(oursName(run), oursRate(run), "uploads/s", directRate, `ours at ${t(run, "ours").clients} clients; ours ${mb(t(run, "ours"))}, tusd ${mb(t(run, "tusd"))}, direct ${mb(t(run, "direct"))}; ${stepNote(t(run, "ours"))}`),
      figure(oursName(run, `${tusdName}, to stored`), perSecond(t(run, "tusd")), "uploads/s", directRate, "the peer against the same floor"),
    ];
  };

  // Cost per core: uploads one CPU-second of the whole stack carries, net of idle.
  const perCpuSecond = (tally: Tally, cs: Component[]) => 1000 / net(tally, cs);
  const costName = (run: SizeRun) => `Uploads per CPU-second, whole stack net of idle, ${run.file.label} (ours)`;
  const s = small;
  const f = t(s, "floor");
  const o = t(s, "ours");
  const floorShape = "floor: start (24 h start delay, 4 search attributes) + Update-with-start on an empty workflow of our shape (the handler answers READY at once, the status upserted, then the workflow ends, as ours does for a class without retention), no database, no S3";
  const cpuParts = (tally: Tally, cs: Component[]) => cs.map((c) => `${c} ${fmt(raw(tally, [c]))}`).join(", ");
  const floorRows = [
    figure(oursName(s), oursRate(s), "uploads/s", rate(s, "floor", "Temporal floor, to READY"), `target at least 0.9 (#30), 0.8 (#23); ours at ${o.clients} clients; ${floorShape}; floor: ${f.client.uploads} answered READY, ${f.client.errors} errors${f.client.firstError ? ` (first error: ${f.client.firstError.slice(0, 120)})` : ""}`),
    figure(
      costName(s),
      perCpuSecond(o, OUR_STACK),
      "uploads/CPU-s",
      baseline("Temporal floor: Temporal + PostgreSQL + its worker", perCpuSecond(f, FLOOR_STACK), "uploads/CPU-s"),
      `target at least 0.9 (#30); ours ${fmt(net(o, OUR_STACK))} ms per upload net of idle (raw: ${cpuParts(o, OUR_STACK)} ms), the floor ${fmt(net(f, FLOOR_STACK))} ms (raw: ${cpuParts(f, FLOOR_STACK)} ms); ours also pays MinIO, clamd, the PUT, two HTTP calls and the checks; clients outside both (ours ${fmt(clientCpu(o))} ms, the floor's ${fmt(clientCpu(f))} ms per upload)`,
    ),
    figure(`CPU per upload, API + worker, ${s.file.label}`, raw(o, ["api", "worker"]), "ms", baseline("Temporal floor's worker", raw(f, ["floor"]), "ms"), `${netNote(o, ["api", "worker"])}; API ${fmt(raw(o, ["api"]))} ms + worker ${fmt(raw(o, ["worker"]))} ms`),
    figure(`CPU per upload, Temporal server, ${s.file.label}`, raw(o, ["temporal"]), "ms", baseline("Temporal server per floor workflow", raw(f, ["temporal"]), "ms"), `${netNote(o, ["temporal"])}; PostgreSQL per floor workflow ${fmt(raw(f, ["postgres"]))} ms (the real server's persistence; the dev server keeps its state in SQLite in its process)`),
  ];

  const l = large;
  const rbc = t(l, "readback-clamd");
  const READBACK_CLAMD_STACK: Component[] = ["minio", "clamd"];
  const largeRows = [
    figure(
      oursName(l),
      oursRate(l),
      "uploads/s",
      rate(l, "readback", "direct PutObject, then every byte read back"),
      `the I/O of any engine that checks every byte; read-back ${fmt(perSecond(t(l, "readback")) / perSecond(t(l, "direct")), 2)} of direct PutObject; ${peerOutcome("read-back", t(l, "readback"))}; CPU per upload: MinIO ${fmt(raw(t(l, "readback"), ["minio"]))} ms, its clients ${fmt(clientCpu(t(l, "readback")))} ms`,
    ),
    figure(
      oursName(l, "ours, to READY, malware scan on"),
      oursRate(l),
      "uploads/s",
      rate(l, "readback-clamd", "direct PutObject, then its bytes read back into clamd INSTREAM"),
      `target at least 0.8 (#23, #30); clamd alone (INSTREAM of the same bytes, no storage) ${fmt(perSecond(t(l, "clamd")))} uploads/s at ${t(l, "clamd").clients} clients, ${fmt(perSecond(t(l, "clamd")) / perSecond(t(l, "direct")), 2)} of direct PutObject; ${peerOutcome("read-back + clamd", rbc)}; ${peerOutcome("clamd", t(l, "clamd"))}`,
    ),
    figure(
      costName(l),
      perCpuSecond(t(l, "ours"), OUR_STACK),
      "uploads/CPU-s",
      baseline("read-back into clamd: MinIO + clamd + its readers", 1000 / (net(rbc, READBACK_CLAMD_STACK) + clientCpu(rbc)), "uploads/CPU-s"),
      `ours ${fmt(net(t(l, "ours"), OUR_STACK))} ms per upload net of idle (raw: ${cpuParts(t(l, "ours"), OUR_STACK)} ms); read-back into clamd ${fmt(net(rbc, READBACK_CLAMD_STACK))} ms (raw: ${cpuParts(rbc, READBACK_CLAMD_STACK)} ms) + its readers ${fmt(clientCpu(rbc))} ms, which are that engine; ours' clients outside (${fmt(clientCpu(t(l, "ours")))} ms)`,
    ),
  ];

  const p = (samples: number[], q: number) => (samples.length ? percentile(samples, q) : NaN);
  const latencyNote =
    `n=${seq.completeMs.length} READY of ${options.peerSequential} (${seq.notReady} not READY), the three alternating; ` +
    `tusd's final PATCH carries the ${s.file.label} and completes the S3 multipart upload; ` +
    `direct PutObject p50 ${fmt(p(seq.directMs, 50))} ms / p99 ${fmt(p(seq.directMs, 99))} ms; ` +
    `whole upload p50: ours ${fmt(p(seq.oursFullMs, 50))} ms (initiate + PUT + complete), tusd ${fmt(p(seq.tusdFullMs, 50))} ms (POST + PATCH)`;

  const tusd = t(s, "tusd");
  const tusdCpu = baseline(`${tusdName} process per stored upload`, raw(tusd, ["tusd"]), "ms");
  const method = `utime+stime (+ reaped children) of each process tree from /proc over the turns and the wait after each until the stack is idle again, ÷ uploads; idle = 2 × ${m.idleSeconds} s with nothing running${m.missing.length ? `; processes NOT found (read as 0): ${m.missing.join(", ")}` : ""}`;
  const clientNote = (run: SizeRun) => `clients (own processes, same 2 cores) per upload: ours ${fmt(clientCpu(t(run, "ours")))} ms, tusd ${fmt(clientCpu(t(run, "tusd")))} ms, direct ${fmt(clientCpu(t(run, "direct")))} ms`;
  const cpuRow = (label: string, cs: Component[], against: ReturnType<typeof baseline>, extra: string) =>
    figure(`CPU per upload, ${label}, ${s.file.label}`, raw(o, cs), "ms", against, `${netNote(o, cs)}; ${extra}`);
  const TUSD_STACK: Component[] = ["tusd", "minio"];

  const requestsPer = (tally: Tally) => (tally.requestsKnown ? tally.requests / tally.client.uploads : NaN);
  const requestsNote = m.requestsProblem
    ? `MinIO request counter unavailable: ${m.requestsProblem}`
    : `${MINIO_REQUESTS_METRIC} (sum over APIs) from ${MINIO_REQUESTS_PATH} around each turn (v2 minio_s3_requests_total is cached 10 s by MinIO); ${l.file.label}: ours ${fmt(requestsPer(t(l, "ours")), 2)}, tusd ${fmt(requestsPer(t(l, "tusd")), 2)}, direct ${fmt(requestsPer(t(l, "direct")), 2)}`;

  const floorHistory = `the Temporal floor: ${fmt(mean(m.floorHistory.events))} events, ${fmt(mean(m.floorHistory.transitions))} transitions (workflow ${m.floorHistory.statuses.join("/") || "none"})`;
  const historyNote = `mean of ${history.events.length} READY objects of the ${s.file.label} turns, read after the turns (workflow ${history.statuses.join("/") || "none"}); ${floorHistory}`;

  return [
    ...floorRows,
    ...throughputRows(s),
    ...largeRows,
    ...throughputRows(l),
    figure(`complete-to-READY p50, ${s.file.label}, sequential`, p(seq.completeMs, 50), "ms", baseline(`${tusdName} final PATCH p50`, p(seq.patchMs, 50), "ms"), latencyNote),
    figure(`complete-to-READY p99, ${s.file.label}, sequential`, p(seq.completeMs, 99), "ms", baseline(`${tusdName} final PATCH p99`, p(seq.patchMs, 99), "ms"), latencyNote),
    cpuRow("API + worker", ["api", "worker"], tusdCpu, `API ${fmt(raw(o, ["api"]))} ms + worker ${fmt(raw(o, ["worker"]))} ms; ours at ${o.clients} clients; ${method}`),
    cpuRow("PostgreSQL (all processes)", ["postgres"], tusdCpu, "postmaster and its backends, during ours' turns"),
    cpuRow("MinIO, ours", ["minio"], baseline(`MinIO per ${tusdName} upload`, raw(tusd, ["minio"]), "ms"), `MinIO per tusd upload net of idle ${fmt(net(tusd, ["minio"]))} ms; per direct PutObject ${fmt(raw(t(s, "direct"), ["minio"]))} ms (net ${fmt(net(t(s, "direct"), ["minio"]))} ms)`),
    cpuRow("whole stack", OUR_STACK, baseline(`${tusdName} + MinIO`, raw(tusd, TUSD_STACK), "ms"), `ours: ${OUR_STACK.join(", ")}; tusd + MinIO net of idle ${fmt(net(tusd, TUSD_STACK))} ms; ${clientNote(s)}`),
    figure(
      `CPU per upload, whole stack, ${l.file.label}`,
      raw(t(l, "ours"), OUR_STACK),
      "ms",
      baseline(`${tusdName} + MinIO`, raw(t(l, "tusd"), TUSD_STACK), "ms"),
      `${netNote(t(l, "ours"), OUR_STACK)}; ${cpuParts(t(l, "ours"), OUR_STACK)} ms; tusd ${fmt(raw(t(l, "tusd"), ["tusd"]))} + MinIO ${fmt(raw(t(l, "tusd"), ["minio"]))} ms; direct: MinIO ${fmt(raw(t(l, "direct"), ["minio"]))} ms; ${clientNote(l)}`,
    ),
    figure(`MinIO requests per upload, ${s.file.label}, ours`, requestsPer(o), "requests", baseline(`MinIO requests per ${tusdName} upload`, requestsPer(tusd), "requests"), requestsNote),
    figure(`MinIO requests per upload, ${s.file.label}, ours`, requestsPer(o), "requests", baseline("direct PutObject", requestsPer(t(s, "direct")), "requests"), "the floor: one PutObject per upload"),
    figure("Temporal history per upload", mean(history.events), "events", baseline("Temporal default limit", TEMPORAL_HISTORY_EVENTS_LIMIT, "events"), `${historyNote}; events of fetchHistory(); tusd keeps its upload state in a .info object in S3 instead`),
    figure("Temporal state transitions per upload", mean(history.transitions), "transitions", null, `${historyNote}; describe() raw workflowExecutionInfo.stateTransitionCount; no peer keeps workflow state`),
  ];
}
