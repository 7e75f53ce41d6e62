/**
 * The Temporal floor as a peer of the upload engine: its worker as a child process of the bench
 * (so bench/proc-cpu.ts counts it as `floor`), and one "upload" = the Temporal calls our API makes
 * for an upload (start with a start delay and the four search attributes at initiate, an
 * Update-with-start at complete), made by the bench process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import path from "node:path";
import { WithStartWorkflowOperation } from "@temporalio/client";
import { parseConfig } from "../../src/config.js";
import { OBJECT_CLASS, OBJECT_STATUS, OWNER_ENTITY_TYPE, TENANT_ID } from "../../workflows/search-attributes.js";
import { temporalClient } from "../timer-support.js";
import { floorCompleteUpdate } from "./workflow.js";

const WORKFLOW = "floorObject";
const START_TIMEOUT_MS = 120_000;
/** As our pending-upload deadline: the delay the Update-with-start ends. */
const START_DELAY = "24h";

export interface TemporalFloor {
  /** One upload's Temporal calls; answers the workflow id once the Update answered READY. */
  upload(): Promise<string>;
  stop(): Promise<void>;
}

export async function startTemporalFloor(root: string, env: Record<string, string>, logDir: string): Promise<TemporalFloor> {
  const taskQueue = `bench-floor-${process.pid}`;
  const child = spawn(process.execPath, ["--import", "tsx", "bench/temporal-floor/worker.ts"], {
    cwd: root,
    env: { ...env, FLOOR_TASK_QUEUE: taskQueue },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = createWriteStream(path.join(logDir, "temporal-floor-worker.log"), { flags: "a" });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  await started(child);
  const client = await temporalClient(parseConfig(env));
  const tenant = `bench-floor-${process.pid}`;
  return {
    async upload() {
      const workflowId = `bench-floor-${randomUUID()}`;
      await client.workflow.start(WORKFLOW, {
        taskQueue,
        workflowId,
        startDelay: START_DELAY,
        typedSearchAttributes: [
          { key: TENANT_ID, value: tenant },
          { key: OBJECT_STATUS, value: "PENDING_UPLOAD" },
          { key: OBJECT_CLASS, value: "GENERAL_DOCUMENT" },
          { key: OWNER_ENTITY_TYPE, value: "bench" },
        ],
      });
      const answer = await client.workflow.executeUpdateWithStart(floorCompleteUpdate, {
        startWorkflowOperation: new WithStartWorkflowOperation(WORKFLOW, {
          taskQueue,
          workflowId,
          workflowIdConflictPolicy: "USE_EXISTING",
          typedSearchAttributes: [{ key: TENANT_ID, value: tenant }],
        }),
      });
      if (answer.status !== "READY") throw new Error(`floor answered ${answer.status}`);
      return workflowId;
    },
    async stop() {
      await client.connection.close();
      const exited = new Promise((resolve) => child.once("exit", resolve));
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

function started(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Temporal floor's worker did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      if (!chunk.toString().includes("floor worker started")) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve();
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the Temporal floor's worker exited with ${code} during start`));
    });
  });
}
