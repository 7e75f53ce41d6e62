/**
 * A client process of the uploads-peers group: makes one engine's uploads for a turn when the
 * group asks (client-protocol.ts), so that every engine's clients run outside the bench process
 * and outside the stack, and their CPU is reported per engine. Started by client-processes.ts with
 * the stack's environment (storage, Temporal, clamd) and BENCH_PEER_CLIENT.
 */
import { createS3Client } from "../../src/adapters/s3/s3-object-storage.js";
import { clamdScanner } from "../../src/adapters/clamav/clamd-scanner.js";
import { parseConfig } from "../../src/config/config.js";
import { parseClamdAddress } from "../../src/config/malware-scanner.js";
import { sleep } from "../support.js";
import { temporalClient } from "../timer-support.js";
import { addSteps, emptyClientTally, type ClientSetup, type ClientTally, type FromClient, type ToClient } from "./client-protocol.js";
import { engineUpload, payloadOf, type EngineName, type EngineTargets, type Payload, type PayloadSize } from "./engines.js";

const setup = JSON.parse(process.env.BENCH_PEER_CLIENT ?? "null") as ClientSetup | null;
if (!setup || !process.send) throw new Error("client-process.ts is started by bench/uploads-peers/client-processes.ts");

const config = parseConfig(process.env);
const targets: EngineTargets = {
  api: { baseUrl: setup.apiUrl, tenant: setup.tenant, token: setup.token },
  s3: createS3Client(config.storage),
  bucket: config.storage.bucket,
  tusdFilesUrl: setup.tusdFilesUrl,
  temporal: await temporalClient(config),
  floor: setup.floor,
  scanner: clamdScanner({ address: parseClamdAddress("CLAMD_ADDRESS", process.env.CLAMD_ADDRESS!), connectTimeoutMs: 2_000, idleTimeoutMs: 30_000 }),
};
const payloads = new Map<PayloadSize, Payload>();
const payload = (size: PayloadSize) => payloads.get(size) ?? payloads.set(size, payloadOf(size)).get(size)!;

/** `clients` closed-loop clients until the deadline. */
async function turn(engine: EngineName, size: PayloadSize, seconds: number, clients: number): Promise<ClientTally> {
  const tally = emptyClientTally();
  const upload = engineUpload(targets, engine, payload(size));
  const cpuBefore = process.cpuUsage();
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      try {
        const outcome = await upload(next++);
        if (outcome.steps) addSteps(tally.steps, outcome.steps);
        if (outcome.ready) {
          tally.uploads++;
          if (outcome.workflowId) tally.workflowIds.push(outcome.workflowId);
        } else {
          tally.notReady.push({ objectId: outcome.objectId, status: outcome.status });
        }
      } catch (error) {
        tally.errors++;
        tally.firstError ??= error instanceof Error ? error.message : String(error);
        await sleep(50); // a refusing server must not turn the client into a busy loop
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const cpu = process.cpuUsage(cpuBefore);
  tally.cpuMs = (cpu.user + cpu.system) / 1000;
  return tally;
}

const send = (message: FromClient) => process.send!(message);

process.on("message", (message: ToClient) => {
  const work =
    message.type === "turn"
      ? turn(message.engine, message.size, message.seconds, message.clients)
      : engineUpload(targets, message.engine, payload(message.size))(-1).then(() => emptyClientTally());
  work.then(
    (tally) => send({ type: "done", id: message.id, tally }),
    (error: unknown) => send({ type: "failed", id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
// The group closes the channel when it is done; nothing else keeps this process.
process.on("disconnect", () => process.exit(0));
send({ type: "ready" });
