/**
 * A complete that starts the object's workflow runs its step (verifyAndComplete) beside the
 * workflow's own first read (loadLifecycleState), both local activities of one workflow task.
 * Live, the two can finish in separate activations; on replay both markers resolve in one. Each
 * history must replay whichever step finished first: the workflow decides only once the
 * complete's answer is out (a history where the complete answered first failed to replay in a CI
 * run of lifecycle-faults: the status upsert overtook the Update's completion on replay).
 *
 * The workflow code is the stack's own bundle, run by a worker of this file's on a task queue of
 * its own, with the two steps answering after chosen delays: which one finishes first is
 * arranged, not left to timing.
 */
import { randomUUID } from "node:crypto";
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type Client } from "@temporalio/client";
import { NativeConnection, Worker } from "@temporalio/worker";
import { describe, expect, it } from "vitest";
import type { LifecycleState } from "../../src/domain/files/lifecycle-state.js";
import { lifecycleWorkflowId, type StoredObjectView } from "../../src/domain/files/stored-object.js";
import type { LifecycleActivities } from "../../workflows/activities/lifecycle-types.js";
import { completeUpdate, LIFECYCLE_WORKFLOW, type LifecycleInput } from "../../workflows/definitions.js";
import { TENANT_ID } from "../../workflows/search-attributes.js";
import { replayAndRecordWorkflows } from "../support/history-recording.js";
import { replayOptions } from "../support/replay-options.js";
import { sleep, stackConfig, withTemporal } from "../support/stack-access.js";

interface Arrangement {
  name: string;
  /** How long each step takes before it answers. */
  completeMs: number;
  loadMs: number;
  /** A deadline ahead: the workflow then waits on a timer instead of ending. */
  retentionExpiresAt?: string;
}

const ARRANGEMENTS: Arrangement[] = [
  { name: "complete-answers-first", completeMs: 0, loadMs: 400 },
  { name: "workflow-reads-first", completeMs: 400, loadMs: 0 },
  { name: "complete-answers-first-retention", completeMs: 0, loadMs: 400, retentionExpiresAt: "2099-01-01T00:00:00.000Z" },
];

/** Both steps find the object READY: the complete's own step moved it there. */
function readyOutcome(tenantId: string, objectId: string, retentionExpiresAt?: string): { state: LifecycleState; object: StoredObjectView } {
  const state: LifecycleState = {
    exists: true,
    deleted: false,
    held: false,
    status: "READY",
    objectClass: "GENERAL_DOCUMENT",
    ownerEntityType: "User",
    retentionPolicy: retentionExpiresAt ? "IMPORT_ARTIFACT_90D" : "PERMANENT",
    ...(retentionExpiresAt ? { retentionExpiresAt } : {}),
  };
  const object = { id: objectId, tenantId, status: "READY", objectClass: "GENERAL_DOCUMENT", ownerEntityType: "User" } as StoredObjectView;
  return { state, object };
}

function stepsAnsweringAfter(arrangement: Arrangement): Partial<LifecycleActivities> {
  const answer = async (ms: number, ref: { tenantId: string; objectId: string }) => {
    await sleep(ms);
    return readyOutcome(ref.tenantId, ref.objectId, arrangement.retentionExpiresAt);
  };
  return {
    verifyAndComplete: (ref) => answer(arrangement.completeMs, ref),
    loadLifecycleState: (ref) => answer(arrangement.loadMs, ref),
  };
}

/** The local activities of a history, in the order their markers were recorded. */
async function stepOrder(client: Client, workflowId: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .map((e) => e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data)
    .filter((data): data is Uint8Array => !!data)
    .map((data) => (JSON.parse(Buffer.from(data).toString()) as { activity_type: string }).activity_type);
}

interface ArrangedRun {
  taskQueue: string;
  tenantId: string;
  workflowId: string;
  input: LifecycleInput;
}

/** Runs `work` while a worker of its own task queue runs the stack's workflow bundle with these steps. */
async function withArrangedWorker<T>(activities: Partial<LifecycleActivities>, work: (run: ArrangedRun) => Promise<T>): Promise<T> {
  const config = stackConfig();
  const tenantId = `step-order-${randomUUID().slice(0, 8)}`;
  const objectId = randomUUID();
  const run: ArrangedRun = {
    taskQueue: `step-order-${randomUUID()}`,
    tenantId,
    workflowId: lifecycleWorkflowId(tenantId, objectId),
    input: { tenantId, objectId, mode: "resume", timeouts: { scanSeconds: 60, heartbeatSeconds: 5 } },
  };
  const { workflowBundle } = await replayOptions("lifecycle");
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  try {
    const worker = await Worker.create({ connection, namespace: config.temporal.namespace, taskQueue: run.taskQueue, workflowBundle, activities });
    return await worker.runUntil(() => work(run));
  } finally {
    await connection.close();
  }
}

async function runArranged(client: Client, arrangement: Arrangement): Promise<{ workflowId: string; answered: StoredObjectView }> {
  return withArrangedWorker(stepsAnsweringAfter(arrangement), async ({ taskQueue, tenantId, workflowId, input }) => {
    const answered = await client.workflow.executeUpdateWithStart(completeUpdate, {
      args: [{ actorId: "user-1", requestId: randomUUID(), waitSeconds: 0 }],
      startWorkflowOperation: new WithStartWorkflowOperation(LIFECYCLE_WORKFLOW, {
        taskQueue,
        workflowId,
        workflowIdConflictPolicy: "USE_EXISTING",
        args: [input],
        typedSearchAttributes: [{ key: TENANT_ID, value: tenantId }],
      }),
    });
    if (arrangement.retentionExpiresAt) {
      // The workflow waits for the deadline: its history so far is what replays.
      await waitForUpsert(client, workflowId);
    } else {
      await client.workflow.getHandle(workflowId).result();
    }
    return { workflowId, answered };
  });
}

async function waitForUpsert(client: Client, workflowId: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    if ((history.events ?? []).some((e) => e.upsertWorkflowSearchAttributesEventAttributes)) return;
    await sleep(100);
  }
  throw new Error(`${workflowId} never recorded its status`);
}

/**
 * Two completes delivered in one workflow task: the first's step is refused at once, the
 * second's answers READY 400 ms later. The workflow's own first read holds the run's first task
 * for a second, so both Updates arrive meanwhile and are delivered together.
 */
async function runTwoCompletes(client: Client): Promise<{ workflowId: string; refused: unknown; answered: StoredObjectView }> {
  const pending: LifecycleState = { exists: true, deleted: false, held: false, status: "PENDING_UPLOAD", objectClass: "GENERAL_DOCUMENT", ownerEntityType: "User", retentionPolicy: "TEMP_UPLOAD_24H", retentionExpiresAt: "2099-01-01T00:00:00.000Z" };
  const activities: Partial<LifecycleActivities> = {
    loadLifecycleState: async () => {
      await sleep(1000);
      return { state: pending };
    },
    verifyAndComplete: async (ref, request) => {
      if (request.checksum === "wrong") return { state: pending, refusal: { reason: "CHECKSUM_MISMATCH", message: "checksum does not match" } };
      await sleep(400);
      return readyOutcome(ref.tenantId, ref.objectId);
    },
  };
  return withArrangedWorker(activities, async ({ taskQueue, tenantId, workflowId, input }) => {
    const handle = await client.workflow.start(LIFECYCLE_WORKFLOW, {
      taskQueue,
      workflowId,
      args: [input],
      typedSearchAttributes: [{ key: TENANT_ID, value: tenantId }],
    });
    await sleep(300);
    const [refused, answered] = await Promise.all([
      handle.executeUpdate(completeUpdate, { args: [{ actorId: "user-1", requestId: randomUUID(), waitSeconds: 0, checksum: "wrong" }] }).catch((error: unknown) => error),
      handle.executeUpdate(completeUpdate, { args: [{ actorId: "user-1", requestId: randomUUID(), waitSeconds: 0 }] }),
    ]);
    await handle.result();
    return { workflowId, refused, answered };
  });
}

describe("a complete's step beside the workflow's own read", () => {
  it("replays whichever finished first", { timeout: 120_000 }, async () => {
    await withTemporal(async (client) => {
      const runs = await Promise.all(ARRANGEMENTS.map(async (arrangement) => ({ arrangement, ...(await runArranged(client, arrangement)) })));
      for (const { arrangement, workflowId, answered } of runs) {
        expect(answered.status).toBe("READY");
        const first = arrangement.completeMs < arrangement.loadMs ? "verifyAndComplete" : "loadLifecycleState";
        expect((await stepOrder(client, workflowId))[0], arrangement.name).toBe(first);
      }
      try {
        await replayAndRecordWorkflows(client, runs.map((r) => ({ name: r.arrangement.name, workflowId: r.workflowId })));
      } finally {
        for (const { arrangement, workflowId } of runs) {
          if (arrangement.retentionExpiresAt) await client.workflow.getHandle(workflowId).terminate("test over");
        }
      }
    });
  });

  it("replays two completes delivered together and answered differently", { timeout: 120_000 }, async () => {
    await withTemporal(async (client) => {
      const { workflowId, refused, answered } = await runTwoCompletes(client);
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect(answered.status).toBe("READY");
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      const accepted = (history.events ?? []).filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).map((e) => Number(e.eventId));
      expect(accepted[1]! - accepted[0]!, "both Updates accepted in one workflow task").toBe(1);
      await replayAndRecordWorkflows(client, [{ name: "two-completes-refused-first", workflowId }]);
    });
  });
});
