/**
 * One upload of the Temporal floor: the Temporal calls our API makes for an upload (start with a
 * start delay and the four search attributes at initiate, an Update-with-start at complete), made
 * by a bench client process against the floor's worker (bench/temporal-floor/floor.ts).
 */
import { randomUUID } from "node:crypto";
import { WithStartWorkflowOperation, type Client } from "@temporalio/client";
import { OBJECT_CLASS, OBJECT_STATUS, OWNER_ENTITY_TYPE, TENANT_ID } from "../../workflows/search-attributes.js";
import { floorCompleteUpdate } from "./workflow.js";

const WORKFLOW = "floorObject";
/** As our pending-upload deadline: the delay the Update-with-start ends. */
const START_DELAY = "24h";

/** Where the floor's worker polls, and the tenant its workflows are tagged with. */
export interface FloorTarget {
  taskQueue: string;
  tenant: string;
}

/** Answers the workflow id once the Update answered READY. */
export async function floorUpload(client: Client, { taskQueue, tenant }: FloorTarget): Promise<string> {
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
}
