/**
 * The Temporal floor as a peer of the upload engine: its worker as a child process of the bench
 * (so bench/proc-cpu.ts counts it as `floor`), and one "upload" = the Temporal calls our API makes
 * for an upload (start with a start delay and the four search attributes at initiate, an
 * Update-with-start at complete), made by the bench process.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { WithStartWorkflowOperation } from "@temporalio/client";
import { parseConfig } from "../../src/config/config.js";
import { OBJECT_CLASS, OBJECT_STATUS, OWNER_ENTITY_TYPE, TENANT_ID } from "../../workflows/search-attributes.js";
import { spawnLogged, waitForLine } from "../../test/support/process-supervisor.js";
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
  const child = spawnLogged(root, { ...env, FLOOR_TASK_QUEUE: taskQueue }, "bench/temporal-floor/worker.ts", path.join(logDir, "temporal-floor-worker.log"));
  await waitForLine(child, "floor worker started", START_TIMEOUT_MS, "the Temporal floor's worker");
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
      // A worker that already exited (it crashed during the run) has nothing to wait for.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
