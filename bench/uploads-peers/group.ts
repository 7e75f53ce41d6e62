/**
 * 10. Our upload engine against its peers, in the same run: tusd v2.10.1 (the tus reference
 * server) with its S3 store in the same MinIO bucket, a direct PutObject of the same bytes with
 * our bucket settings (SSE AES256, If-None-Match), the Temporal floor (bench/temporal-floor), and
 * at 8 MiB read-back, clamd alone and read-back into clamd (engines.ts).
 *
 * Every engine's clients run in client processes of their own (client-processes.ts). For each
 * file size, each engine's saturation is found first (saturation.ts), then rounds give each engine
 * turns at its own concurrency in balanced orders, each turn starting once the stack is back at
 * idle (turns.ts). Two idle windows (before the turns and after them) give each component's
 * background CPU, so the figures can say what an upload costs net of it. Then: sequential uploads,
 * the three alternating, for the latency of the step that makes an upload final, and the Temporal
 * history of READY objects (events, state transitions). figures.ts turns it into rows.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createS3Client } from "../../src/adapters/s3/s3-object-storage.js";
import { parseConfig } from "../../src/config/config.js";
import { findFreePort } from "../../src/stack/free-port.js";
import { ensureBinary } from "../../src/stack/go-binaries.js";
import { startTusd } from "../../src/stack/tusd.js";
import type { BenchGroup } from "../context.js";
import { minioRequestCounter } from "../minio-metrics.js";
import { COMPONENTS, componentsFound, type Component } from "../proc-cpu.js";
import { apiFor, progress, type Api } from "../support.js";
import { spread, temporalClient } from "../timer-support.js";
import { startTemporalFloor } from "../temporal-floor/floor.js";
import { getUpload } from "../uploads.js";
import { startClientProcesses } from "./client-processes.js";
import { payloadOf, type EngineName, type PayloadSize } from "./engines.js";
import { figures, type Histories, type SizeRun } from "./figures.js";
import { saturation, type Saturation } from "./saturation.js";
import { sequential } from "./sequential.js";
import { idleRates, rounds, type TurnContext } from "./turns.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The floor has no bytes: its cost does not depend on the file, so the 8 MiB rounds leave it out. */
const ENGINES: Record<PayloadSize, EngineName[]> = {
  small: ["ours", "floor", "tusd", "direct"],
  large: ["ours", "tusd", "direct", "readback", "clamd", "readback-clamd"],
};
/** Each of the two idle windows (before the turns and after them). */
const IDLE_SECONDS = 5;
/** READY objects whose workflow history is read, spread over all turns of the 100 KB run. */
const HISTORY_SAMPLES = 10;

export const uploadsPeers: BenchGroup = {
  name: "uploads-peers",
  kind: "stack",
  async run({ stack, options }) {
    const storage = parseConfig(stack.env).storage;
    const logDir = path.join(stack.dataDir, "logs");
    const binary = await ensureBinary("tusd", { projectRoot: root, log: progress });
    const tusd = await startTusd({
      binary,
      port: await findFreePort(),
      logDir,
      log: progress,
      s3: { endpoint: storage.endpoint, bucket: storage.bucket, region: storage.region, accessKey: storage.accessKey, secretKey: storage.secretKey },
      objectPrefix: "bench-tusd/",
    });
    const floor = await startTemporalFloor(root, stack.env, logDir);
    const s3 = createS3Client(storage);
    const api = await apiFor(stack.apiUrl, "bench-peers");
    const setup = { apiUrl: api.baseUrl, tenant: api.tenant, token: api.token, tusdFilesUrl: tusd.filesUrl, floor: floor.target };
    const clients = await startClientProcesses({ root, count: options.peerClientProcesses, env: stack.env, setup, logDir });
    try {
      const requests = await minioRequestCounter({ endpoint: storage.endpoint, accessKey: storage.accessKey, secretKey: storage.secretKey });
      const found = componentsFound();
      const missing = COMPONENTS.filter((c) => !found.includes(c));
      progress(`uploads-peers: ${tusd.version} at ${tusd.filesUrl}; processes found: ${found.join(", ")}${missing.length ? `; NOT found: ${missing.join(", ")}` : ""}`);

      progress(`uploads-peers: ${IDLE_SECONDS} s idle (background CPU of the stack)`);
      const idleBefore = await idleRates(IDLE_SECONDS);
      const context: TurnContext = { clients, readRequests: () => requests.read(), idle: idleBefore };
      const runSize = async (size: PayloadSize): Promise<SizeRun> => {
        for (const engine of ENGINES[size]) await clients.warmUp(engine, size);
        const saturations = new Map<EngineName, Saturation>();
        for (const engine of ENGINES[size]) saturations.set(engine, await saturation(context, engine, size, options.peerSweepSeconds, progress));
        const concurrency = new Map([...saturations].map(([engine, s]) => [engine, s.clients]));
        const tallies = await rounds(context, concurrency, size, options.peerSeconds, options.peerRounds, progress);
        return { file: payloadOf(size), tallies, saturations, left: await stillNotReady(api, tallies.get("ours")!.client.notReady) };
      };
      const small = await runSize("small");
      const large = await runSize("large");
      progress(`uploads-peers: sequential ${small.file.label}, ${options.peerSequential} per engine, alternating`);
      const seq = await sequential({ api, s3, bucket: storage.bucket, tusdFilesUrl: tusd.filesUrl }, small.file, options.peerSequential);
      const history = await histories(stack.env, spread(small.tallies.get("ours")!.client.workflowIds, HISTORY_SAMPLES));
      const floorHistory = await histories(stack.env, spread(small.tallies.get("floor")!.client.workflowIds, HISTORY_SAMPLES));
      progress(`uploads-peers: ${IDLE_SECONDS} s idle again`);
      const idleAfter = await idleRates(IDLE_SECONDS);
      const idle = Object.fromEntries(COMPONENTS.map((c) => [c, (idleBefore[c] + idleAfter[c]) / 2])) as Record<Component, number>;
      const tusdName = tusd.version.replace(/^Version:\s*/, "tusd ");
      return figures({ small, large, seq, history, floorHistory, options, tusdName, missing, idle, idleSeconds: IDLE_SECONDS, requestsProblem: requests.problem });
    } finally {
      await clients.stop();
      s3.destroy();
      await floor.stop();
      await tusd.stop();
    }
  },
};

/** Events and state transitions of READY objects' lifecycle workflows, as they stand now. */
async function histories(stackEnv: Record<string, string>, workflowIds: string[]): Promise<Histories> {
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
