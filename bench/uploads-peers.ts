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
 * counted with it, for work an upload leaves behind (our workflow finishing after READY). Two
 * idle windows (before the turns and after them) give each component's background CPU, so the
 * notes can say what an upload costs net of it. Then: sequential uploads, the three alternating,
 * for the latency of the step that makes an upload final (our complete, tusd's last PATCH), and
 * the Temporal history of READY objects (events, state transitions).
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { clamdScanner } from "../src/adapters/clamav/clamd-scanner.js";
import { createS3Client } from "../src/adapters/s3/s3-object-storage.js";
import { parseConfig } from "../src/config/config.js";
import { parseClamdAddress } from "../src/config/malware-scanner.js";
import type { MalwareScanner } from "../src/app/files/lifecycle/port.js";
import { lifecycleWorkflowId } from "../src/domain/files/stored-object.js";
import { findFreePort } from "../src/stack/free-port.js";
import { ensureBinary } from "../src/stack/go-binaries.js";
import { startTusd, type RunningTusd } from "../src/stack/tusd.js";
import type { BenchGroup } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { MINIO_REQUESTS_METRIC, MINIO_REQUESTS_PATH, minioRequestCounter } from "./minio-metrics.js";
import { componentsFound, cpuDelta, cpuSnapshot, ownCpuMs, type Component } from "./proc-cpu.js";
import { fileOfSize, largePdf, photoPng } from "./scan-files.js";
import { mean, percentile, timed } from "./stats.js";
import { apiFor, progress, sleep, type Api } from "./support.js";
import { spread, temporalClient } from "./timer-support.js";
import { startTemporalFloor, type TemporalFloor } from "./temporal-floor/floor.js";
import { balancedOrders } from "./balanced-order.js";
import { tusCreate, tusPatch, tusUpload } from "./tus.js";
import { complete, getUpload, initiate, put, uploadThrough, type UploadSpec, type UploadStepTimes } from "./uploads.js";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const MiB = 1024 * 1024;
const SMALL_CLIENTS = 32;
const LARGE_CLIENTS = 16;
/**
 * After a turn, the next starts once the components that finish an engine's work in the
 * background (the worker, Temporal, PostgreSQL) are back at their idle CPU: each used at most
 * SETTLE_MARGIN_MS of CPU above its idle rate over a window of SETTLE_WINDOW_MS (/proc counts in
 * 10 ms ticks). At least one window, at most SETTLE_MAX_MS.
 */
const SETTLE_WINDOW_MS = 500;
const SETTLE_MARGIN_MS = 20;
const SETTLE_MAX_MS = 15_000;
const SETTLED: Component[] = ["worker", "temporal", "postgres"];
/** Each of the two idle windows (before the turns and after them). */
const IDLE_SECONDS = 5;
/** READY objects whose workflow history is read, spread over all turns of the 100 KB run. */
const HISTORY_SAMPLES = 10;
/** Temporal server default (limit.historyCount.error), the fixed reference of the history row. */
const TEMPORAL_HISTORY_EVENTS_LIMIT = 51_200;

/**
 * `floor`: the Temporal calls of an upload on an empty workflow of the same shape (bench/temporal-floor).
 * `readback`: a direct PutObject, then every byte read back with GetObject, as a scan that looks
 * at every byte must (the PDF checks do): what any engine that checks the whole file pays in I/O.
 * `clamd`: the same bytes streamed to clamd alone (INSTREAM), no storage: the malware engine's own cost.
 * `readback-clamd`: a direct PutObject, then its bytes read back straight into clamd's INSTREAM:
 * the least any upload scanned for malware from storage can cost, the peer of ours at 8 MiB.
 */
type EngineName = "ours" | "floor" | "tusd" | "direct" | "readback" | "clamd" | "readback-clamd";
const SMALL_ENGINES: EngineName[] = ["ours", "floor", "tusd", "direct"];
/** The floor has no bytes: its cost does not depend on the file, so the 8 MiB rounds leave it out. */
const LARGE_ENGINES: EngineName[] = ["ours", "tusd", "direct", "readback", "clamd", "readback-clamd"];
const SEQUENTIAL_ENGINES = ["ours", "tusd", "direct"] as const;

interface Payload {
  label: string;
  bytes: Uint8Array;
  contentType: string;
  filename: string;
}

type Outcome = ({ ready: true; workflowId?: string } | { ready: false; objectId: string; status: string }) & { steps?: UploadStepTimes };

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
  /** Time after this engine's turns until the stack was back at idle. */
  settleSeconds: number;
  requests: number;
  requestsKnown: boolean;
  clientCpuMs: number;
  /** Ours only: the sum of each call's time over all uploads (initiate, PUT, complete). */
  steps: UploadStepTimes;
}

const emptyCpu = (): Record<Component, number> => ({ api: 0, worker: 0, temporal: 0, postgres: 0, minio: 0, tusd: 0, floor: 0 });
const emptyTally = (): Tally => ({
  uploads: 0,
  errors: 0,
  notReady: [],
  workflowIds: [],
  seconds: 0,
  cpu: emptyCpu(),
  windowSeconds: 0,
  settleSeconds: 0,
  requests: 0,
  requestsKnown: true,
  clientCpuMs: 0,
  steps: { initiateMs: 0, putMs: 0, completeMs: 0 },
});

interface Peers {
  api: Api;
  s3: S3Client;
  bucket: string;
  tusd: RunningTusd;
  floor: TemporalFloor;
  requests: Awaited<ReturnType<typeof minioRequestCounter>>;
  scanner: MalwareScanner;
}

function engineUpload(peers: Peers, engine: EngineName, file: Payload): (index: number) => Promise<Outcome> {
  switch (engine) {
    case "ours":
      return async (index) => {
        const spec: UploadSpec = { objectClass: "GENERAL_DOCUMENT", contentType: file.contentType, bytes: file.bytes, filename: file.filename, ownerEntityId: `peer-${index}` };
        const steps: UploadStepTimes = { initiateMs: 0, putMs: 0, completeMs: 0 };
        const object = await uploadThrough(peers.api, spec, steps);
        // The workflow id is derived from tenant and object; the API may name it too.
        const workflowId = object.workflowId || lifecycleWorkflowId(peers.api.tenant, object.id);
        return object.status === "READY" ? { ready: true, workflowId, steps } : { ready: false, objectId: object.id, status: object.status, steps };
      };
    case "floor":
      return async () => ({ ready: true, workflowId: await peers.floor.upload() });
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
    case "readback":
      return async () => {
        let bytes = 0;
        for await (const chunk of await putAndReadBack(peers, file)) bytes += chunk.length;
        if (bytes !== file.bytes.length) throw new Error(`read back ${bytes} of ${file.bytes.length} bytes`);
        return { ready: true };
      };
    case "clamd":
      return async () => {
        await scanClean(peers.scanner, oneChunk(file.bytes));
        return { ready: true };
      };
    case "readback-clamd":
      return async () => {
        await scanClean(peers.scanner, await putAndReadBack(peers, file));
        return { ready: true };
      };
  }
}

async function putAndReadBack(peers: Peers, file: Payload): Promise<AsyncIterable<Uint8Array>> {
  const put = directPut(peers.bucket, file);
  await peers.s3.send(put);
  const got = await peers.s3.send(new GetObjectCommand({ Bucket: peers.bucket, Key: put.input.Key }));
  return got.Body as AsyncIterable<Uint8Array>;
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

async function scanClean(scanner: MalwareScanner, bytes: AsyncIterable<Uint8Array>): Promise<void> {
  const { verdict } = await scanner.scan(bytes);
  if (verdict !== "clean") throw new Error(`clamd answered ${verdict} for a clean file`);
}

/**
 * The direct peers' PutObject with its payload unsigned (`x-amz-content-sha256: UNSIGNED-PAYLOAD`,
 * which the SigV4 signer takes as given), as our presigned PUT and tusd (-s3-disable-content-hashes)
 * send theirs: over plain HTTP the SDK would otherwise hash every byte to sign it.
 */
function directPut(bucket: string, file: Payload): PutObjectCommand {
  const command = new PutObjectCommand({
    Bucket: bucket,
    Key: `bench-peers-direct/${randomUUID()}`,
    Body: file.bytes,
    ContentType: file.contentType,
    ContentLength: file.bytes.length,
    ServerSideEncryption: "AES256",
    IfNoneMatch: "*",
  });
  command.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD";
      return next(args);
    },
    { step: "build", name: "benchUnsignedPayload" },
  );
  return command;
}

/** One engine's turn: `clients` closed-loop clients until the deadline, then until the stack is idle again. */
async function turn(peers: Peers, engine: EngineName, file: Payload, seconds: number, clients: number, idle: Record<Component, number>, into: Tally): Promise<void> {
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
        if (outcome.steps) {
          into.steps.initiateMs += outcome.steps.initiateMs;
          into.steps.putMs += outcome.steps.putMs;
          into.steps.completeMs += outcome.steps.completeMs;
        }
        if (outcome.ready) {
          into.uploads++;
          if (outcome.workflowId) into.workflowIds.push(outcome.workflowId);
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
  const settled = await settle(idle);
  const cpu = cpuDelta(cpuBefore, cpuSnapshot());
  const requestsAfter = await peers.requests.read();
  into.seconds += elapsed;
  into.windowSeconds += elapsed + settled;
  into.settleSeconds += settled;
  into.clientCpuMs += ownCpuMs() - clientBefore;
  for (const [name, ms] of Object.entries(cpu)) into.cpu[name as Component] += ms;
  if (requestsBefore === undefined || requestsAfter === undefined) into.requestsKnown = false;
  else into.requests += requestsAfter - requestsBefore;
}

/** CPU ms per second each component uses with no upload running (the stack's own background). */
async function idleRates(seconds: number): Promise<Record<Component, number>> {
  const before = cpuSnapshot();
  await sleep(seconds * 1000);
  const used = cpuDelta(before, cpuSnapshot());
  return Object.fromEntries(Object.entries(used).map(([c, ms]) => [c, ms / seconds])) as Record<Component, number>;
}

/** Seconds until SETTLED components are back at their idle CPU (see SETTLE_WINDOW_MS). */
async function settle(idle: Record<Component, number>): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = cpuSnapshot();
    await sleep(SETTLE_WINDOW_MS);
    const used = cpuDelta(before, cpuSnapshot());
    const busy = SETTLED.some((c) => used[c] > idle[c] * (SETTLE_WINDOW_MS / 1000) + SETTLE_MARGIN_MS);
    if (!busy || performance.now() - started >= SETTLE_MAX_MS) return (performance.now() - started) / 1000;
  }
}

/**
 * `passes` over the balanced orders (balanced-order.ts: each engine follows every other equally
 * often), one turn per engine in each order.
 */
async function rounds(peers: Peers, engines: EngineName[], file: Payload, clients: number, seconds: number, passes: number, idle: Record<Component, number>): Promise<Record<EngineName, Tally>> {
  const tallies: Record<EngineName, Tally> = {
    ours: emptyTally(),
    floor: emptyTally(),
    tusd: emptyTally(),
    direct: emptyTally(),
    readback: emptyTally(),
    clamd: emptyTally(),
    "readback-clamd": emptyTally(),
  };
  // Warm-up, not counted: connections, JIT, the first signature, tusd's first multipart upload.
  for (const engine of engines) await engineUpload(peers, engine, file)(-1);
  const orders = Array.from({ length: passes }, () => balancedOrders(engines)).flat();
  for (const [round, order] of orders.entries()) {
    for (const engine of order) {
      progress(`uploads-peers: ${file.label} round ${round + 1}/${orders.length}, ${engine}, ${clients} clients for ${seconds} s`);
      await turn(peers, engine, file, seconds, clients, idle, tallies[engine]);
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
async function sequential(peers: Peers, file: Payload, runs: number): Promise<Sequential> {
  const result: Sequential = { completeMs: [], oursFullMs: [], patchMs: [], tusdFullMs: [], directMs: [], notReady: 0 };
  const steps: Record<(typeof SEQUENTIAL_ENGINES)[number], (i: number) => Promise<void>> = {
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
    for (let k = 0; k < SEQUENTIAL_ENGINES.length; k++) await steps[SEQUENTIAL_ENGINES[(i + k) % SEQUENTIAL_ENGINES.length]](i);
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
    const floor = await startTemporalFloor(root, stack.env, path.join(stack.dataDir, "logs"));
    const s3 = createS3Client(storage);
    const requests = await minioRequestCounter({ endpoint: storage.endpoint, accessKey: storage.accessKey, secretKey: storage.secretKey });
    const scanner = clamdScanner({ address: parseClamdAddress("CLAMD_ADDRESS", stack.env.CLAMD_ADDRESS!), connectTimeoutMs: 2_000, idleTimeoutMs: 30_000 });
    const peers: Peers = { api: await apiFor(stack.apiUrl, "bench-peers"), s3, bucket: storage.bucket, tusd, floor, requests, scanner };
    try {
      const found = componentsFound();
      const missing = (["api", "worker", "temporal", "postgres", "minio", "tusd", "floor"] as Component[]).filter((c) => !found.includes(c));
      progress(`uploads-peers: ${tusd.version} at ${tusd.filesUrl}; processes found: ${found.join(", ")}${missing.length ? `; NOT found: ${missing.join(", ")}` : ""}`);

      const png = photoPng();
      const small: Payload = { label: `${Math.round(png.length / 1000)} KB PNG`, bytes: png, contentType: "image/png", filename: "photo.png" };
      const pdf = fileOfSize(8 * MiB, largePdf);
      const large: Payload = { label: "8 MiB PDF", bytes: pdf, contentType: "application/pdf", filename: "big.pdf" };

      progress(`uploads-peers: ${IDLE_SECONDS} s idle (background CPU of the stack)`);
      const idleBefore = await idleRates(IDLE_SECONDS);
      const smallRun = await rounds(peers, SMALL_ENGINES, small, SMALL_CLIENTS, options.peerSeconds, options.peerRounds, idleBefore);
      const largeRun = await rounds(peers, LARGE_ENGINES, large, LARGE_CLIENTS, options.peerSeconds, options.peerRounds, idleBefore);
      progress(`uploads-peers: sequential ${small.label}, ${options.peerSequential} per engine, alternating`);
      const seq = await sequential(peers, small, options.peerSequential);
      const history = await histories(stack.env, spread(smallRun.ours.workflowIds, HISTORY_SAMPLES));
      const floorHistory = await histories(stack.env, spread(smallRun.floor.workflowIds, HISTORY_SAMPLES));
      const leftSmall = await stillNotReady(peers.api, smallRun.ours.notReady);
      const leftLarge = await stillNotReady(peers.api, largeRun.ours.notReady);
      progress(`uploads-peers: ${IDLE_SECONDS} s idle again`);
      const idleAfter = await idleRates(IDLE_SECONDS);
      const idle = Object.fromEntries(Object.keys(idleBefore).map((c) => [c, (idleBefore[c as Component] + idleAfter[c as Component]) / 2])) as Record<Component, number>;

      return figures({ smallRun, largeRun, seq, history, floorHistory, leftSmall, leftLarge, small, large, options, tusd, missing, idle, requestsProblem: requests.problem });
    } finally {
      s3.destroy();
      await floor.stop();
      await tusd.stop();
    }
  },
};

interface Measured {
  smallRun: Record<EngineName, Tally>;
  largeRun: Record<EngineName, Tally>;
  seq: Sequential;
  history: Awaited<ReturnType<typeof histories>>;
  floorHistory: Awaited<ReturnType<typeof histories>>;
  leftSmall: Map<string, number>;
  leftLarge: Map<string, number>;
  small: Payload;
  large: Payload;
  options: { peerSeconds: number; peerRounds: number; peerSequential: number };
  tusd: RunningTusd;
  missing: Component[];
  /** CPU ms per second with nothing running, mean of the idle windows before and after. */
  idle: Record<Component, number>;
  requestsProblem?: string;
}

function figures(m: Measured): Figure[] {
  const { smallRun, largeRun, seq, history, small, large, options, idle } = m;
  const tusdName = m.tusd.version.replace(/^Version:\s*/, "tusd ");
  const turns = (engines: EngineName[]) => options.peerRounds * balancedOrders(engines).length;
  const settleNote = (run: Record<EngineName, Tally>, engines: EngineName[]) =>
    engines.map((e) => `${e} ${fmt(run[e].settleSeconds / turns(engines))}`).join(", ");
  const schedule = `${turns(SMALL_ENGINES)} turns (100 KB) / ${turns(LARGE_ENGINES)} (8 MiB) × ${options.peerSeconds} s per engine, interleaved, each engine following every other equally often, each turn starting once the worker, Temporal and PostgreSQL are back at idle CPU (mean s after a turn, 100 KB: ${settleNote(smallRun, SMALL_ENGINES)}; 8 MiB: ${settleNote(largeRun, LARGE_ENGINES)}); rate = uploads ÷ time until the turn's last upload answered`;
  const outcome = (t: Tally, left: Map<string, number>) => {
    const still = [...left.entries()].map(([status, n]) => `${n} ${status}`).join(", ");
    const notReady = t.notReady.length === 0 ? "0 not READY" : `${t.notReady.length} not READY when complete answered (still not READY at the end: ${still || "none"})`;
    return `ours: ${t.uploads} READY, ${t.errors} errors, ${notReady}${t.firstError ? ` (first error: ${t.firstError.slice(0, 120)})` : ""}`;
  };
  const peerOutcome = (name: string, t: Tally) => `${name}: ${t.uploads} stored, ${t.errors} errors${t.firstError ? ` (first error: ${t.firstError.slice(0, 120)})` : ""}`;
  const stepNote = (t: Tally) => {
    const n = t.uploads + t.notReady.length;
    return `ours per upload: initiate ${fmt(t.steps.initiateMs / n, 0)} ms, PUT ${fmt(t.steps.putMs / n, 0)} ms, complete ${fmt(t.steps.completeMs / n, 0)} ms (means)`;
  };
  const throughputRows = (file: Payload, clients: number, run: Record<EngineName, Tally>, left: Map<string, number>): Figure[] => {
    const name = `Uploads/s, ${file.label}, ${clients} clients`;
    const tusdRate = baseline(`${tusdName}, to stored`, perSecond(run.tusd), "uploads/s");
    const directRate = baseline("direct PutObject, SSE AES256", perSecond(run.direct), "uploads/s");
    const mb = (t: Tally) => `${fmt((perSecond(t) * file.bytes.length) / 1e6)} MB/s`;
    const counts = `${schedule}; ${outcome(run.ours, left)}; ${peerOutcome("tusd", run.tusd)}; ${peerOutcome("direct", run.direct)}`;
    return [
      figure(`${name} (ours, to READY)`, perSecond(run.ours), "uploads/s", tusdRate, counts),
      figure(`${name} (ours, to READY)`, perSecond(run.ours), "uploads/s", directRate, `ours ${mb(run.ours)}, tusd ${mb(run.tusd)}, direct ${mb(run.direct)}; ${stepNote(run.ours)}`),
      figure(`${name} (${tusdName}, to stored)`, perSecond(run.tusd), "uploads/s", directRate, "the peer against the same floor"),
    ];
  };

  const p = (samples: number[], q: number) => (samples.length ? percentile(samples, q) : NaN);
  const latencyNote =
    `n=${seq.completeMs.length} READY of ${options.peerSequential} (${seq.notReady} not READY), the three alternating; ` +
    `tusd's final PATCH carries the ${small.label} and completes the S3 multipart upload; ` +
    `direct PutObject p50 ${fmt(p(seq.directMs, 50))} ms / p99 ${fmt(p(seq.directMs, 99))} ms; ` +
    `whole upload p50: ours ${fmt(p(seq.oursFullMs, 50))} ms (initiate + PUT + complete), tusd ${fmt(p(seq.tusdFullMs, 50))} ms (POST + PATCH)`;

  // CPU: raw per upload, and net of what the component burns idle over the same window.
  const raw = (t: Tally, cs: Component[]) => cs.reduce((sum, c) => sum + t.cpu[c], 0) / t.uploads;
  const net = (t: Tally, cs: Component[]) => cs.reduce((sum, c) => sum + t.cpu[c] - idle[c] * t.windowSeconds, 0) / t.uploads;
  const idleOf = (cs: Component[]) => cs.reduce((sum, c) => sum + idle[c], 0);
  const netNote = (t: Tally, cs: Component[]) => `net of idle ${fmt(net(t, cs))} ms (idle ${fmt(idleOf(cs))} ms CPU/s × ${fmt(t.windowSeconds / t.uploads, 3)} s per upload)`;
  const s = smallRun;
  const tusdOnly: Component[] = ["tusd"];
  const tusdAndMinio: Component[] = ["tusd", "minio"];
  const tusdCpu = baseline(`${tusdName} process per stored upload`, raw(s.tusd, tusdOnly), "ms");
  const method = `utime+stime (+ reaped children) of each process tree from /proc over the turns and the wait after each until the stack is idle again, ÷ uploads; idle = 2 × ${IDLE_SECONDS} s with nothing running${m.missing.length ? `; processes NOT found (read as 0): ${m.missing.join(", ")}` : ""}`;
  const clientNote = (t: Record<EngineName, Tally>) =>
    `bench clients (same 2 cores) per upload: ours ${fmt(t.ours.clientCpuMs / t.ours.uploads)} ms, tusd ${fmt(t.tusd.clientCpuMs / t.tusd.uploads)} ms, direct ${fmt(t.direct.clientCpuMs / t.direct.uploads)} ms`;
  const cpuRow = (label: string, cs: Component[], against: ReturnType<typeof baseline>, extra: string) =>
    figure(`CPU per upload, ${label}, ${small.label}`, raw(s.ours, cs), "ms", against, `${netNote(s.ours, cs)}; ${extra}`);
  const OUR_STACK: Component[] = ["api", "worker", "temporal", "postgres", "minio"];

  const requestsPer = (t: Tally) => (t.requestsKnown ? t.requests / t.uploads : NaN);
  const requestsNote = m.requestsProblem
    ? `MinIO request counter unavailable: ${m.requestsProblem}`
    : `${MINIO_REQUESTS_METRIC} (sum over APIs) from ${MINIO_REQUESTS_PATH} around each turn (v2 minio_s3_requests_total is cached 10 s by MinIO); ${large.label}: ours ${fmt(requestsPer(largeRun.ours), 2)}, tusd ${fmt(requestsPer(largeRun.tusd), 2)}, direct ${fmt(requestsPer(largeRun.direct), 2)}`;

  // The Temporal floor: what one workflow per object costs with none of our work in it.
  const f = s.floor;
  const floorShape = "floor: start (24 h start delay, 4 search attributes) + Update-with-start on an empty workflow of our shape (the handler answers READY at once, the status upserted, then the workflow ends, as ours does for a class without retention), no database, no S3";
  const floorProcesses = (f.cpu.floor + f.clientCpuMs) / f.uploads;
  const floorStack = raw(f, ["temporal", "postgres"]) + floorProcesses;
  const floorRows = [
    figure(
      `Uploads/s, ${small.label}, ${SMALL_CLIENTS} clients (ours, to READY)`,
      perSecond(s.ours),
      "uploads/s",
      baseline("Temporal floor, to READY", perSecond(f), "uploads/s"),
      `${floorShape}; floor: ${f.uploads} answered READY, ${f.errors} errors${f.firstError ? ` (first error: ${f.firstError.slice(0, 120)})` : ""}`,
    ),
    cpuRow("API + worker", ["api", "worker"], baseline("Temporal floor: its worker + its client calls", floorProcesses, "ms"), `floor worker ${fmt(f.cpu.floor / f.uploads)} ms + the bench process making the floor's Temporal calls ${fmt(f.clientCpuMs / f.uploads)} ms`),
    cpuRow("Temporal server", ["temporal"], baseline("Temporal server per floor workflow", raw(f, ["temporal"]), "ms"), `the floor's turns; PostgreSQL per floor workflow ${fmt(raw(f, ["postgres"]))} ms (the real server's persistence)`),
    cpuRow("whole stack", OUR_STACK, baseline("Temporal floor: Temporal + PostgreSQL + its worker + its client", floorStack, "ms"), `ours also pays MinIO, the PUT, two HTTP calls and the checks; the floor's bench client is counted, ours' clients are not (${fmt(s.ours.clientCpuMs / s.ours.uploads)} ms per upload)`),
  ];

  const floorHistory = `the Temporal floor: ${fmt(mean(m.floorHistory.events))} events, ${fmt(mean(m.floorHistory.transitions))} transitions (workflow ${m.floorHistory.statuses.join("/") || "none"})`;
  const historyNote = `mean of ${history.events.length} READY objects of the ${small.label} turns, read after the turns (workflow ${history.statuses.join("/") || "none"}); ${floorHistory}`;

  return [
    ...throughputRows(small, SMALL_CLIENTS, smallRun, m.leftSmall),
    ...floorRows,
    ...throughputRows(large, LARGE_CLIENTS, largeRun, m.leftLarge),
    figure(
      `Uploads/s, ${large.label}, ${LARGE_CLIENTS} clients (ours, to READY)`,
      perSecond(largeRun.ours),
      "uploads/s",
      baseline("direct PutObject, then every byte read back", perSecond(largeRun.readback), "uploads/s"),
      `the I/O of any engine that checks every byte; read-back ${fmt(perSecond(largeRun.readback) / perSecond(largeRun.direct), 2)} of direct PutObject; ${peerOutcome("read-back", largeRun.readback)}; CPU per upload: MinIO ${fmt(raw(largeRun.readback, ["minio"]))} ms, the bench client ${fmt(largeRun.readback.clientCpuMs / largeRun.readback.uploads)} ms (direct: ${fmt(largeRun.direct.clientCpuMs / largeRun.direct.uploads)} ms)`,
    ),
    figure(
      `Uploads/s, ${large.label}, ${LARGE_CLIENTS} clients (ours, to READY, malware scan on)`,
      perSecond(largeRun.ours),
      "uploads/s",
      baseline("direct PutObject, then its bytes read back into clamd INSTREAM", perSecond(largeRun["readback-clamd"]), "uploads/s"),
      `target at least 0.8 (#23); clamd alone (INSTREAM of the same bytes, no storage) ${fmt(perSecond(largeRun.clamd))} uploads/s, ${fmt(perSecond(largeRun.clamd) / perSecond(largeRun.direct), 2)} of direct PutObject; ${peerOutcome("read-back + clamd", largeRun["readback-clamd"])}; ${peerOutcome("clamd", largeRun.clamd)}`,
    ),
    figure(`complete-to-READY p50, ${small.label}, sequential`, p(seq.completeMs, 50), "ms", baseline(`${tusdName} final PATCH p50`, p(seq.patchMs, 50), "ms"), latencyNote),
    figure(`complete-to-READY p99, ${small.label}, sequential`, p(seq.completeMs, 99), "ms", baseline(`${tusdName} final PATCH p99`, p(seq.patchMs, 99), "ms"), latencyNote),
    cpuRow("API + worker", ["api", "worker"], tusdCpu, `API ${fmt(raw(s.ours, ["api"]))} ms + worker ${fmt(raw(s.ours, ["worker"]))} ms; ${small.label} turns at ${SMALL_CLIENTS} clients; ${method}`),
    cpuRow("Temporal server", ["temporal"], tusdCpu, "during ours' turns; the dev server keeps its state in SQLite in its process, the real server in the stack's PostgreSQL (counted there)"),
    cpuRow("PostgreSQL (all processes)", ["postgres"], tusdCpu, "postmaster and its backends, during ours' turns"),
    cpuRow("MinIO, ours", ["minio"], baseline(`MinIO per ${tusdName} upload`, raw(s.tusd, ["minio"]), "ms"), `MinIO per tusd upload net of idle ${fmt(net(s.tusd, ["minio"]))} ms; per direct PutObject ${fmt(raw(s.direct, ["minio"]))} ms (net ${fmt(net(s.direct, ["minio"]))} ms)`),
    cpuRow("whole stack", OUR_STACK, baseline(`${tusdName} + MinIO`, raw(s.tusd, tusdAndMinio), "ms"), `ours: API, worker, Temporal, PostgreSQL, MinIO; tusd + MinIO net of idle ${fmt(net(s.tusd, tusdAndMinio))} ms; ${clientNote(s)}`),
    figure(
      `CPU per upload, whole stack, ${large.label}`,
      raw(largeRun.ours, OUR_STACK),
      "ms",
      baseline(`${tusdName} + MinIO`, raw(largeRun.tusd, tusdAndMinio), "ms"),
      `${LARGE_CLIENTS} clients; ${netNote(largeRun.ours, OUR_STACK)}; API+worker ${fmt(raw(largeRun.ours, ["api", "worker"]))}, Temporal ${fmt(raw(largeRun.ours, ["temporal"]))}, PostgreSQL ${fmt(raw(largeRun.ours, ["postgres"]))}, MinIO ${fmt(raw(largeRun.ours, ["minio"]))} ms; tusd ${fmt(raw(largeRun.tusd, tusdOnly))} + MinIO ${fmt(raw(largeRun.tusd, ["minio"]))} ms; direct: MinIO ${fmt(raw(largeRun.direct, ["minio"]))} ms; ${clientNote(largeRun)}`,
    ),
    figure(`MinIO requests per upload, ${small.label}, ours`, requestsPer(s.ours), "requests", baseline(`MinIO requests per ${tusdName} upload`, requestsPer(s.tusd), "requests"), requestsNote),
    figure(`MinIO requests per upload, ${small.label}, ours`, requestsPer(s.ours), "requests", baseline("direct PutObject", requestsPer(s.direct), "requests"), "the floor: one PutObject per upload"),
    figure(
      "Temporal history per upload",
      mean(history.events),
      "events",
      baseline("Temporal default limit", TEMPORAL_HISTORY_EVENTS_LIMIT, "events"),
      `${historyNote}; events of fetchHistory(); tusd keeps its upload state in a .info object in S3 instead`,
    ),
    figure("Temporal state transitions per upload", mean(history.transitions), "transitions", null, `${historyNote}; describe() raw workflowExecutionInfo.stateTransitionCount; no peer keeps workflow state`),
  ];
}
