import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from "@temporalio/workflow";
import type { LifecycleActivities } from "./activities/types.js";
import {
  awaitScanUpdate,
  completeUpdate,
  type LifecycleInput,
  type LifecycleResult,
  retentionChangedSignal,
} from "./definitions.js";
import { OBJECT_CLASS, OBJECT_STATUS, OWNER_ENTITY_TYPE } from "./search-attributes.js";

type Phase = "pending" | "scanning" | "settled";

function msUntil(iso: string): number {
  return Math.max(0, new Date(iso).getTime() - Date.now());
}

/**
 * One workflow per stored object: it answers complete (an Update, so the caller gets a
 * synchronous answer), runs the scan, and holds the object's retention deadline as a durable
 * timer. Orchestration only: every read and write is an activity.
 */
export async function objectLifecycle(input: LifecycleInput): Promise<LifecycleResult> {
  const ref = { tenantId: input.tenantId, objectId: input.objectId };
  // Short database steps run as local activities: no round trip through the Temporal server per
  // step, which is most of the latency between complete and READY. The scan stays a regular
  // activity: it is long, heartbeats, and must move to another worker when its worker dies.
  const acts = proxyLocalActivities<LifecycleActivities>({
    startToCloseTimeout: "1 minute",
    retry: { initialInterval: "500ms", backoffCoefficient: 2, maximumInterval: "30s" },
  });
  // The complete Update answers a waiting caller: a dead dependency must become a quick
  // `unavailable` (the client retries complete), not an Update that hangs on retries.
  const answer = proxyLocalActivities<LifecycleActivities>({
    startToCloseTimeout: "20 seconds",
    retry: { initialInterval: "300ms", backoffCoefficient: 2, maximumAttempts: 3 },
  });
  const scan = proxyActivities<LifecycleActivities>({
    startToCloseTimeout: `${input.timeouts.scanSeconds}s`,
    heartbeatTimeout: `${input.timeouts.heartbeatSeconds}s`,
    retry: { initialInterval: "1s", backoffCoefficient: 2, maximumInterval: "1 minute", maximumAttempts: 20 },
  });

  let phase = (input.mode === "upload" ? "pending" : "settled") as Phase;
  let scanEnded = input.mode !== "upload";
  let retentionChanged = false;
  const setStatus = (status: string) => upsertSearchAttributes([{ key: OBJECT_STATUS, value: status }]);

  setHandler(completeUpdate, async (args) => {
    const verdict = await answer.completeUpload(ref, args).catch((error: unknown) => {
      throw ApplicationFailure.nonRetryable(`a dependency is unavailable; retry complete: ${(error as Error).message}`, "DEPENDENCY_UNAVAILABLE");
    });
    if (verdict.kind === "not_found") throw ApplicationFailure.nonRetryable("upload not found", "OBJECT_NOT_FOUND");
    if (verdict.kind === "refused") {
      if (verdict.objectDeleted) phase = "settled";
      throw ApplicationFailure.nonRetryable(verdict.message, verdict.reason);
    }
    if (verdict.kind === "completed" && phase === "pending") {
      phase = "scanning";
      setStatus("SCANNING");
    }
    return verdict.object;
  });
  setHandler(awaitScanUpdate, async () => {
    await condition(() => scanEnded);
    return acts.loadObject(ref);
  });
  setHandler(retentionChangedSignal, () => {
    retentionChanged = true;
  });

  if (phase === "pending") {
    const moved = await condition(() => phase !== "pending", msUntil(input.pendingDeadline ?? new Date().toISOString()));
    if (!moved) await acts.expireObject(ref);
  }
  if (phase === "scanning") {
    const result = await scan.scanObject(ref);
    const { status } = await acts.finishScan(ref, result);
    setStatus(status);
  }
  scanEnded = true;

  let described = input.mode === "upload";
  for (;;) {
    const state = await acts.loadRetentionState(ref);
    if (!described && state.exists) {
      // Restarted for retention: the start knew only the tenant; the UI filters on the rest too.
      described = true;
      upsertSearchAttributes([
        { key: OBJECT_STATUS, value: state.status ?? "" },
        { key: OBJECT_CLASS, value: state.objectClass ?? "" },
        { key: OWNER_ENTITY_TYPE, value: state.ownerEntityType ?? "" },
      ]);
    }
    if (!state.exists || state.deleted) {
      await condition(allHandlersFinished);
      return { outcome: "DELETED", status: state.status };
    }
    if (state.held || !state.retentionExpiresAt) {
      // Nothing to wait for: the workflow ends, and a later change starts it again.
      await condition(allHandlersFinished);
      if (!retentionChanged) return { outcome: "SETTLED", status: state.status };
      retentionChanged = false;
      continue;
    }
    retentionChanged = false;
    const changed = await condition(() => retentionChanged, msUntil(state.retentionExpiresAt));
    if (!changed) await acts.expireObject(ref);
  }
}
