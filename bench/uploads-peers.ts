/**
 * 10. Our upload engine against its peers, in the same run: tusd v2.10.1 (the tus reference
 * server) with its S3 store in the same MinIO bucket, and a direct PutObject of the same bytes
 * with our bucket settings (SSE AES256, If-None-Match) as the floor. Each round gives every engine
 * one turn of BENCH_PEER_SECONDS at the same concurrency (the order rotates per round), so drift
 * of a shared machine hits all three alike.
 *
 * An upload counts for ours when CompleteUpload with waitForResult answered READY (initiate, PUT
 * to the signed URL, complete: bench/uploads.ts); for tusd when it answered the final PATCH (the
 * bytes are in S3, the multipart upload completed); for direct when PutObject answered.
 *
 * Around each turn: CPU time of every stack process from /proc (bench/proc-cpu.ts) and MinIO's
 * S3 request counter, so cost per upload is counted per component. A second after each turn is
 * counted with it, for work an upload leaves behind (our workflow finishing after READY).
 */
import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createS3Client } from "../src/adapters/s3/s3-object-storage.js";
import { parseConfig } from "../src/config.js";
import { lifecycleWorkflowId } from "../src/domain/files/stored-object.js";
import { findFreePort } from "../src/stack/free-port.js";
import { ensureBinary } from "../src/stack/go-binaries.js";
import { startTusd, type RunningTusd } from "../src/stack/tusd.js";
import type { BenchGroup } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { minioRequestCounter } from "./minio-metrics.js";
import { componentsFound, cpuDelta, cpuSnapshot, ownCpuMs, type Component } from "./proc-cpu.js";
import { fileOfSize, largePdf, photoPng } from "./scan-files.js";
import { mean, percentile, timed } from "./stats.js";
import { apiFor, progress, sleep, type Api } from "./support.js";
import { temporalClient } from "./timer-support.js";
import { tusCreate, tusPatch, tusUpload } from "./tus.js";
import { complete, getUpload, initiate, put, uploadThrough, type UploadSpec } from "./uploads.js";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const MiB = 1024 * 1024;
const SMALL_CLIENTS = 32;
const LARGE_CLIENTS = 16;
const SETTLE_MS = 1_000;
/** READY objects whose workflow history is read. */
const HISTORY_SAMPLES = 5;
/** Temporal server default (limit.historyCount.error), the fixed reference of the history row. */
const TEMPORAL_HISTORY_EVENTS_LIMIT = 51_200;

type EngineName = "ours" | "tusd" | "direct";
const ENGINES: EngineName[] = ["ours", "tusd", "direct"];

interface File {
  label: string;
  bytes: Uint8Array;
  contentType: string;
  filename: string;
}

type Outcome = { ready: true; workflowId?: string } | { ready: false; objectId: string; status: string };

interface Tally {
  uploads: number;
  errors: number;
  firstError?: string;
  notReady: { objectId: string; status: string }[];
  workflowIds: string[];
  seconds: number;
  /** Includes the settle time after each turn. */
  cpu: Record<Component, number>;
  windowSeconds: number;
  requests: number;
  requestsKnown: boolean;
  clientCpuMs: number;
}

const emptyCpu = (): Record<Component, number> => ({ api: 0, worker: 0, temporal: 0, postgres: 0, minio: 0, tusd: 0 });
const emptyTally = (): Tally => ({
  uploads: 0,
  errors: 0,
  notReady: [],
  workflowIds: [],
  seconds: 0,
  cpu: emptyCpu(),
  windowSeconds: 0,
  requests: 0,
  requestsKnown: true,
  clientCpuMs: 0,
});

interface Peers {
  api: Api;
  s3: S3Client;
  bucket: string;
  tusd: RunningTusd;
  requests: Awaited<ReturnType<typeof minioRequestCounter>>;
}

function engineUpload(peers: Peers, engine: EngineName, file: File): (index: number) => Promise<Outcome> {
  switch (engine) {
    case "ours":
      return async (index) => {
        const spec: UploadSpec = { objectClass: "GENERAL_DOCUMENT", contentType: file.contentType, bytes: file.bytes, filename: file.filename, ownerEntityId: `peer-${index}` };
        const object = await uploadThrough(peers.api, spec);
        // The workflow id is derived from tenant and object; the API may name it too.
        const workflowId = object.workflowId || lifecycleWorkflowId(peers.api.tenant, object.id);
        return object.status === "READY" ? { ready: true, workflowId } : { ready: false, objectId: object.id, status: object.status };
      };
    case "tusd":
      return async () => {
        await tusUpload(peers.tusd.filesUrl, file.bytes, { filename: file.filename, filetype: file.contentType });
        return { ready: true };
      };
    case "direct":
      return async () => {
        await peers.s3.send(directPut(peers.bucket, file));
        return { ready: true };
      };
  }
}

function directPut(bucket: string, file: File): PutObjectCommand {
  return new PutObjectCommand({
    Bucket: bucket,
    Key: `bench-peers-direct/${randomUUID()}`,
    Body: file.bytes,
    ContentType: file.contentType,
    ContentLength: file.bytes.length,
    ServerSideEncryption: "AES256",
    IfNoneMatch: "*",
  });
}

/** One engine's turn: `clients` closed-loop clients until the deadline, then the settle time. */
async function turn(peers: Peers, engine: EngineName, file: File, seconds: number, clients: number, into: Tally): Promise<void> {
  const upload = engineUpload(peers, engine, file);
  const cpuBefore = cpuSnapshot();
  const requestsBefore = await peers.requests.read();
  const clientBefore = ownCpuMs();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let next = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      try {
        const outcome = await upload(next++);
        if (outcome.ready) {
          into.uploads++;
          if (outcome.workflowId && into.workflowIds.length < HISTORY_SAMPLES) into.workflowIds.push(outcome.workflowId);
        } else {
          into.notReady.push({ objectId: outcome.objectId, status: outcome.status });
        }
      } catch (error) {
        into.errors++;
        into.firstError ??= error instanceof Error ? error.message : String(error);
        await sleep(50); // a refusing server must not turn the client into a busy loop
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const elapsed = (performance.now() - started) / 1000;
  await sleep(SETTLE_MS);
  const cpu = cpuDelta(cpuBefore, cpuSnapshot());
  const requestsAfter = await peers.requests.read();
  into.seconds += elapsed;
  into.windowSeconds += elapsed + SETTLE_MS / 1000;
  into.clientCpuMs += ownCpuMs() - clientBefore;
  for (const [name, ms] of Object.entries(cpu)) into.cpu[name as Component] += ms;
  if (requestsBefore === undefined || requestsAfter === undefined) into.requestsKnown = false;
  else into.requests += requestsAfter - requestsBefore;
}

/** Rounds of one turn per engine, the order rotating each round. */
async function rounds(peers: Peers, file: File, clients: number, seconds: number, count: number): Promise<Record<EngineName, Tally>> {
  const tallies: Record<EngineName, Tally> = { ours: emptyTally(), tusd: emptyTally(), direct: emptyTally() };
  // Warm-up, not counted: connections, JIT, the first signature, tusd's first multipart upload.
  for (const engine of ENGINES) await engineUpload(peers, engine, file)(-1);
  for (let round = 0; round < count; round++) {
    const order = ENGINES.map((_, i) => ENGINES[(i + round) % ENGINES.length]);
    for (const engine of order) {
      progress(`uploads-peers: ${file.label} round ${round + 1}/${count}, ${engine}, ${clients} clients for ${seconds} s`);
      await turn(peers, engine, file, seconds, clients, tallies[engine]);
      const t = tallies[engine];
      progress(`uploads-peers:   ${engine}: ${t.uploads} so far, ${t.errors} errors${engine === "ours" ? `, ${t.notReady.length} not READY` : ""}`);
    }
  }
  return tallies;
}

interface Sequential {
  completeMs: number[];
  oursFullMs: number[];
  patchMs: number[];
  tusdFullMs: number[];
  directMs: number[];
  notReady: number;
}

/** The three engines alternating, one upload at a time: what the last step before "stored" costs. */
async function sequential(peers: Peers, file: File, runs: number): Promise<Sequential> {
  const result: Sequential = { completeMs: [], oursFullMs: [], patchMs: [], tusdFullMs: [], directMs: [], notReady: 0 };
  const steps: Record<EngineName, (i: number) => Promise<void>> = {
    ours: async (i) => {
      const began = performance.now();
      const spec: UploadSpec = { objectClass: "GENERAL_DOCUMENT", contentType: file.contentType, bytes: file.bytes, filename: file.filename, ownerEntityId: `seq-${i}` };
      const started = await initiate(peers.api, spec, file.bytes.length);
      await put(started, file.bytes);
      const { ms, value } = await timed(() => complete(peers.api, started.storedObject.id));
      if (value.status !== "READY") {
        result.notReady++;
        return;
      }
      result.completeMs.push(ms);
      result.oursFullMs.push(performance.now() - began);
    },
    tusd: async () => {
      const began = performance.now();
      const url = await tusCreate(peers.tusd.filesUrl, file.bytes.length, { filename: file.filename, filetype: file.contentType });
      result.patchMs.push((await timed(() => tusPatch(url, file.bytes))).ms);
      result.tusdFullMs.push(performance.now() - began);
    },
    direct: async () => {
      result.directMs.push((await timed(() => peers.s3.send(directPut(peers.bucket, file)))).ms);
    },
  };
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < ENGINES.length; k++) await steps[ENGINES[(i + k) % ENGINES.length]](i);
  }
  return result;
}

/** Events and state transitions of READY objects' lifecycle workflows, as they stand now. */
async function histories(stackEnv: Record<string, string>, workflowIds: string[]) {
  const client = await temporalClient(parseConfig(stackEnv));
  try {
    const events: number[] = [];
    const transitions: number[] = [];
    const statuses = new Set<string>();
    for (const id of workflowIds) {
      const handle = client.workflow.getHandle(id);
      const history = await handle.fetchHistory();
      events.push(history.events?.length ?? 0);
      const described = await handle.describe();
      transitions.push(Number(described.raw.workflowExecutionInfo?.stateTransitionCount ?? NaN));
      statuses.add(described.status.name);
    }
    return { events, transitions, statuses: [...statuses] };
  } finally {
    await client.connection.close();
  }
}

/** Objects that were not READY when complete answered, looked at again now. */
async function stillNotReady(api: Api, objects: { objectId: string }[]): Promise<Map<string, number>> {
  const byStatus = new Map<string, number>();
  for (const { objectId } of objects) {
    const status = (await getUpload(api, objectId)).status;
    if (status !== "READY") byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }
  return byStatus;
}

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
const perSecond = (t: Tally) => t.uploads / t.seconds;
const cpuPer = (t: Tally, ...components: Component[]) => components.reduce((sum, c) => sum + t.cpu[c], 0) / t.uploads;
/** CPU ms per second of the turn's window: what a component burns while another engine runs. */
const cpuRate = (t: Tally, ...components: Component[]) => components.reduce((sum, c) => sum + t.cpu[c], 0) / t.windowSeconds;
const OUR_STACK: Component[] = ["api", "worker", "temporal", "postgres", "minio"];

export const uploadsPeers: BenchGroup = {
  name: "uploads-peers",
  kind: "stack",
  async run({ stack, options }) {
    const storage = parseConfig(stack.env).storage;
    const binary = await ensureBinary("tusd", { projectRoot: root, log: progress });
    const tusd = await startTusd({
      binary,
      port: await findFreePort(),
      logDir: path.join(stack.dataDir, "logs"),
      log: progress,
      s3: { endpoint: storage.endpoint, bucket: storage.bucket, region: storage.region, accessKey: storage.accessKey, secretKey: storage.secretKey },
      objectPrefix: "bench-tusd/",
    });
    const s3 = createS3Client(storage);
    const requests = await minioRequestCounter({ endpoint: storage.endpoint, accessKey: storage.accessKey, secretKey: storage.secretKey });
    const peers: Peers = { api: await apiFor(stack.apiUrl, "bench-peers"), s3, bucket: storage.bucket, tusd, requests };
    try {
      const found = componentsFound();
      const missing = (["api", "worker", "temporal", "postgres", "minio", "tusd"] as Component[]).filter((c) => !found.includes(c));
      progress(`uploads-peers: ${tusd.version} at ${tusd.filesUrl}; processes found: ${found.join(", ")}${missing.length ? `; NOT found: ${missing.join(", ")}` : ""}`);

      const png = photoPng();
      const small: File = { label: `${Math.round(png.length / 1000)} KB PNG`, bytes: png, contentType: "image/png", filename: "photo.png" };
      const pdf = fileOfSize(8 * MiB, largePdf);
      const large: File = { label: "8 MiB PDF", bytes: pdf, contentType: "application/pdf", filename: "big.pdf" };

      const smallRun = await rounds(peers, small, SMALL_CLIENTS, options.peerSeconds, options.peerRounds);
      const largeRun = await rounds(peers, large, LARGE_CLIENTS, options.peerSeconds, options.peerRounds);
      progress(`uploads-peers: sequential ${small.label}, ${options.peerSequential} per engine, alternating`);
      const seq = await sequential(peers, small, options.peerSequential);
      const history = await histories(stack.env, smallRun.ours.workflowIds);
      const leftSmall = await stillNotReady(peers.api, smallRun.ours.notReady);
      const leftLarge = await stillNotReady(peers.api, largeRun.ours.notReady);

      return figures({ smallRun, largeRun, seq, history, leftSmall, leftLarge, small, large, options, tusd, missing, requestsProblem: requests.problem });
    } finally {
      s3.destroy();
      await tusd.stop();
    }
  },
};

interface Measured {
  smallRun: Record<EngineName, Tally>;
  largeRun: Record<EngineName, Tally>;
  seq: Sequential;
  history: Awaited<ReturnType<typeof histories>>;
  leftSmall: Map<string, number>;
  leftLarge: Map<string, number>;
  small: File;
  large: File;
  options: { peerSeconds: number; peerRounds: number; peerSequential: number };
  tusd: RunningTusd;
  missing: Component[];
  requestsProblem?: string;
}

function figures(m: Measured): Figure[] {
  const { smallRun, largeRun, seq, history, small, large, options } = m;
  const tusdName = m.tusd.version.replace(/^Version:\s*/, "tusd ");
  const schedule = `${options.peerRounds} rounds × ${options.peerSeconds} s per engine, interleaved`;
  const outcome = (t: Tally, left: Map<string, number>) => {
    const still = [...left.entries()].map(([status, n]) => `${n} ${status}`).join(", ");
    const notReady = t.notReady.length === 0 ? "0 not READY" : `${t.notReady.length} not READY when complete answered (still not READY at the end: ${still || "none"})`;
    return `ours: ${t.uploads} READY, ${t.errors} errors, ${notReady}${t.firstError ? ` (first error: ${t.firstError.slice(0, 120)})` : ""}`;
  };
  const peerOutcome = (name: string, t: Tally) => `${name}: ${t.uploads} stored, ${t.errors} errors${t.firstError ? ` (first error: ${t.firstError.slice(0, 120)})` : ""}`;
  const throughputRows = (file: File, clients: number, run: Record<EngineName, Tally>, left: Map<string, number>): Figure[] => {
    const name = `Uploads/s, ${file.label}, ${clients} clients`;
    const tusdRate = baseline(`${tusdName}, to stored`, perSecond(run.tusd), "uploads/s");
    const directRate = baseline("direct PutObject, SSE AES256", perSecond(run.direct), "uploads/s");
    const mb = (t: Tally) => `${fmt((perSecond(t) * file.bytes.length) / 1e6)} MB/s`;
    const counts = `${schedule}; ${outcome(run.ours, left)}; ${peerOutcome("tusd", run.tusd)}; ${peerOutcome("direct", run.direct)}`;
    return [
      figure(`${name} (ours, to READY)`, perSecond(run.ours), "uploads/s", tusdRate, counts),
      figure(`${name} (ours, to READY)`, perSecond(run.ours), "uploads/s", directRate, `ours ${mb(run.ours)}, tusd ${mb(run.tusd)}, direct ${mb(run.direct)}`),
      figure(`${name} (${tusdName}, to stored)`, perSecond(run.tusd), "uploads/s", directRate, "the peer against the same floor"),
    ];
  };

  const p = (samples: number[], q: number) => (samples.length ? percentile(samples, q) : NaN);
  const latencyNote =
    `n=${seq.completeMs.length} READY of ${options.peerSequential} (${seq.notReady} not READY), the three alternating; ` +
    `tusd's final PATCH carries the ${small.label} and completes the S3 multipart upload; ` +
    `direct PutObject p50 ${fmt(p(seq.directMs, 50))} ms / p99 ${fmt(p(seq.directMs, 99))} ms; ` +
    `whole upload p50: ours ${fmt(p(seq.oursFullMs, 50))} ms (initiate + PUT + complete), tusd ${fmt(p(seq.tusdFullMs, 50))} ms (POST + PATCH)`;

  const s = smallRun;
  const tusdCpu = baseline(`${tusdName} process per stored upload`, cpuPer(s.tusd, "tusd"), "ms");
  const tusdTotal = (t: Tally) => cpuPer(t, "tusd", "minio");
  const background =
    `while tusd ran, the idle rest used API+worker ${fmt(cpuRate(s.tusd, "api", "worker"))}, Temporal ${fmt(cpuRate(s.tusd, "temporal"))}, ` +
    `PostgreSQL ${fmt(cpuRate(s.tusd, "postgres"))} ms CPU per s`;
  const clientNote = (t: Record<EngineName, Tally>) =>
    `bench clients (same machine) per upload: ours ${fmt(t.ours.clientCpuMs / t.ours.uploads)} ms, tusd ${fmt(t.tusd.clientCpuMs / t.tusd.uploads)} ms, direct ${fmt(t.direct.clientCpuMs / t.direct.uploads)} ms`;
  const cpuNote = `${small.label} turns at ${SMALL_CLIENTS} clients; utime+stime from /proc (process trees), turn + ${SETTLE_MS / 1000} s settle, ÷ uploads${m.missing.length ? `; processes NOT found (read as 0): ${m.missing.join(", ")}` : ""}`;

  const requestsPer = (t: Tally) => (t.requestsKnown ? t.requests / t.uploads : NaN);
  const requestsNote = m.requestsProblem
    ? `MinIO request counter unavailable: ${m.requestsProblem}`
    : `minio_s3_requests_total (sum over APIs) from /minio/v2/metrics/cluster around each ${small.label} turn; direct PutObject ${fmt(requestsPer(s.direct), 2)} per upload; ${large.label}: ours ${fmt(requestsPer(largeRun.ours), 2)}, tusd ${fmt(requestsPer(largeRun.tusd), 2)}, direct ${fmt(requestsPer(largeRun.direct), 2)}`;

  const historyNote = `mean of ${history.events.length} READY objects of the ${small.label} turns, read after the turns (workflow ${history.statuses.join("/") || "none"}); fetchHistory() events`;

  return [
    ...throughputRows(small, SMALL_CLIENTS, smallRun, m.leftSmall),
    ...throughputRows(large, LARGE_CLIENTS, largeRun, m.leftLarge),
    figure(`complete-to-READY p50, ${small.label}, sequential`, p(seq.completeMs, 50), "ms", baseline(`${tusdName} final PATCH p50`, p(seq.patchMs, 50), "ms"), latencyNote),
    figure(`complete-to-READY p99, ${small.label}, sequential`, p(seq.completeMs, 99), "ms", baseline(`${tusdName} final PATCH p99`, p(seq.patchMs, 99), "ms"), latencyNote),
    figure(`CPU per upload, API + worker, ${small.label}`, cpuPer(s.ours, "api", "worker"), "ms", tusdCpu, `API ${fmt(cpuPer(s.ours, "api"))} ms + worker ${fmt(cpuPer(s.ours, "worker"))} ms; ${cpuNote}`),
    figure(`CPU per upload, Temporal dev server, ${small.label}`, cpuPer(s.ours, "temporal"), "ms", tusdCpu, `during ours' turns; ${cpuNote}`),
    figure(`CPU per upload, PostgreSQL (all processes), ${small.label}`, cpuPer(s.ours, "postgres"), "ms", tusdCpu, `during ours' turns; ${cpuNote}`),
    figure(`CPU per upload, MinIO, ${small.label}, ours`, cpuPer(s.ours, "minio"), "ms", baseline(`MinIO per ${tusdName} upload`, cpuPer(s.tusd, "minio"), "ms"), `direct PutObject: MinIO ${fmt(cpuPer(s.direct, "minio"))} ms per upload; ${cpuNote}`),
    figure(`CPU per upload, whole stack, ${small.label}`, cpuPer(s.ours, ...OUR_STACK), "ms", baseline(`${tusdName} + MinIO`, tusdTotal(s.tusd), "ms"), `ours: API, worker, Temporal, PostgreSQL, MinIO; ${background}; ${clientNote(s)}`),
    figure(
      `CPU per upload, whole stack, ${large.label}`,
      cpuPer(largeRun.ours, ...OUR_STACK),
      "ms",
      baseline(`${tusdName} + MinIO`, tusdTotal(largeRun.tusd), "ms"),
      `${LARGE_CLIENTS} clients; API+worker ${fmt(cpuPer(largeRun.ours, "api", "worker"))}, Temporal ${fmt(cpuPer(largeRun.ours, "temporal"))}, PostgreSQL ${fmt(cpuPer(largeRun.ours, "postgres"))}, MinIO ${fmt(cpuPer(largeRun.ours, "minio"))} ms; tusd ${fmt(cpuPer(largeRun.tusd, "tusd"))} + MinIO ${fmt(cpuPer(largeRun.tusd, "minio"))} ms; direct: MinIO ${fmt(cpuPer(largeRun.direct, "minio"))} ms; ${clientNote(largeRun)}`,
    ),
    figure(`MinIO requests per upload, ${small.label}, ours`, requestsPer(s.ours), "requests", baseline(`MinIO requests per ${tusdName} upload`, requestsPer(s.tusd), "requests"), requestsNote),
    figure(`MinIO requests per upload, ${small.label}, ours`, requestsPer(s.ours), "requests", baseline("direct PutObject", requestsPer(s.direct), "requests"), "the floor: one PutObject per upload"),
    figure(
      "Temporal history per upload",
      mean(history.events),
      "events",
      baseline("Temporal default limit", TEMPORAL_HISTORY_EVENTS_LIMIT, "events"),
      `${historyNote}; tusd keeps its upload state in a .info object in S3 instead`,
    ),
    figure("Temporal state transitions per upload", mean(history.transitions), "transitions", null, `${historyNote}; describe() workflowExecutionInfo.stateTransitionCount; no peer keeps workflow state`),
  ];
}
