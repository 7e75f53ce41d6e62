import {
  type ActivityOptions,
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  type LocalActivityOptions,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from "@temporalio/workflow";
import { removalBlocked } from "../src/domain/files/legal-hold.js";
import { isOlderThan, type LifecycleState, operatorStatusOf, phaseOf } from "../src/domain/files/lifecycle-state.js";
import type { StoredObjectView } from "../src/domain/files/stored-object.js";
import type { FaultPoint, LifecycleActivities, WithFault } from "./activities/lifecycle-types.js";
import type { CompleteOutcome } from "../src/app/files/lifecycle/verify-and-complete.js";
import type { StepOutcome } from "../src/app/files/lifecycle/step-outcome.js";
import { completeUpdate, type LifecycleInput, type LifecycleResult, retentionChangedSignal } from "./definitions.js";
import { OBJECT_CLASS, OBJECT_STATUS, OWNER_ENTITY_TYPE } from "./search-attributes.js";

/**
 * What each step does, shown beside it in the Temporal UI (its user metadata), so that an object's
 * history reads as its story rather than as bare activity names and MarkerRecorded events.
 */
const STEP_SUMMARIES: Record<keyof LifecycleActivities, string> = {
  loadLifecycleState: "read the object's row: status, hold, retention deadline",
  verifyAndComplete: "complete: compare size and checksum; scan a small image or PDF at once",
  scanObject: "scan: stream the bytes once to the content checks and the malware engine",
  finishScan: "record the scan's verdict: READY or REJECTED, replacement, audit",
  expireObject: "deadline reached: expire the object and remove its bytes (unless held)",
};

/** At least 1 ms: a zero timeout would mean "no timeout". */
function msUntil(iso: string): number {
  return Math.max(1, new Date(iso).getTime() - Date.now());
}

/** A plain Error fails the workflow task (Temporal retries it); only the test switch asks for one. */
function failTaskIf(step: { fault?: FaultPoint }, point: FaultPoint): void {
  if (step.fault === point) throw new Error(`injected workflow task failure (${point})`);
}

/**
 * One workflow per stored object, from initiate through scan to its retention deadline.
 * Orchestration only: every read and write is an activity, and every activity answers with the
 * object's persisted state after its step. The workflow acts on that state, never on whether a
 * call was the first: activities, Update handlers and workflow tasks all run at least once.
 */
export async function objectLifecycle(input: LifecycleInput): Promise<LifecycleResult> {
  const ref = { tenantId: input.tenantId, objectId: input.objectId };
  // Short database steps run as local activities: no round trip through the Temporal server.
  const STEP: LocalActivityOptions = {
    startToCloseTimeout: "1 minute",
    retry: { initialInterval: "500ms", backoffCoefficient: 2, maximumInterval: "30s" },
  };
  const steps = proxyLocalActivities<LifecycleActivities>(STEP);
  // Complete answers a waiting caller: a dead dependency must become a quick `unavailable`
  // (the client retries complete), not an Update that hangs on retries.
  const ANSWER: LocalActivityOptions = {
    startToCloseTimeout: "20 seconds",
    retry: { initialInterval: "300ms", backoffCoefficient: 2, maximumAttempts: 3 },
  };
  const answer = proxyLocalActivities<LifecycleActivities>(ANSWER);
  // The streaming scan (CSV, SVG, Office, large files) and the malware engine: long, heartbeats,
  // and must move to another worker when its worker dies. While the engine is down every attempt
  // fails on it; the interval stays short so that each waiting scan ends within 30 s of its return.
  const SCAN: ActivityOptions = {
    startToCloseTimeout: `${input.timeouts.scanSeconds}s`,
    heartbeatTimeout: `${input.timeouts.heartbeatSeconds}s`,
    retry: { initialInterval: "1s", backoffCoefficient: 2, maximumInterval: "30s", maximumAttempts: 20 },
  };
  const scan = proxyActivities<LifecycleActivities>(SCAN);

  let state: LifecycleState | undefined =
    input.mode === "upload"
      ? { exists: true, deleted: false, held: false, status: "PENDING_UPLOAD", retentionExpiresAt: input.pendingDeadline }
      : undefined;
  let object: StoredObjectView | undefined;
  /** Something changed the row outside this workflow: re-read before the next decision. */
  let stale = state === undefined;
  /** The complete call that led to the scan, for the scan's audit entry. */
  let completeRequestId: string | undefined;
  let shownStatus = input.mode === "upload" ? "PENDING_UPLOAD" : undefined;
  /** Completes whose step (a local activity) is running now, and the loop's own steps. */
  let completeSteps = 0;
  let loopSteps = 0;
  /**
   * Whether the loop waits for completes before deciding (completesAnswered), settled when a
   * complete's step and one of the loop's first run side by side. Runs recorded before the patch
   * decided at once and replay so. Asked only then, not at every start: a patch records a marker
   * and upserts TemporalChangeVersion, a visibility write most uploads need not pay.
   */
  let answersFirst: boolean | undefined;
  const stepsOverlap = () => {
    answersFirst ??= patched("complete-answers-before-decisions");
  };
  // Steps are counted with try/finally around their await, never with a wrapper or .finally():
  // either would add promise hops, and the order of continuations within one activation is what
  // the runs recorded before the patch replay by.
  const loopStepStarts = () => {
    if (completeSteps > 0) stepsOverlap();
    loopSteps++;
  };

  const adopt = (outcome: { state: LifecycleState; object?: StoredObjectView }) => {
    if (state && isOlderThan(outcome.state, state)) return;
    object = outcome.object;
    // The same state read again is no change: waits keep their timers.
    if (!state || JSON.stringify(outcome.state) !== JSON.stringify(state)) state = outcome.state;
  };
  const reload = async () => {
    stale = false;
    loopStepStarts();
    let loaded: WithFault<StepOutcome>;
    try {
      loaded = await steps.loadLifecycleState.executeWithOptions({ ...STEP, summary: STEP_SUMMARIES.loadLifecycleState }, [ref]);
    } finally {
      loopSteps--;
    }
    adopt(loaded);
    failTaskIf(loaded, "after-step");
  };

  setHandler(completeUpdate, async (args) => {
    if (loopSteps > 0) stepsOverlap();
    completeSteps++;
    let outcome: WithFault<CompleteOutcome>;
    try {
      outcome = await answer.verifyAndComplete.executeWithOptions({ ...ANSWER, summary: STEP_SUMMARIES.verifyAndComplete }, [ref, args]).catch((error: unknown) => {
        throw ApplicationFailure.nonRetryable(`a dependency is unavailable; retry complete: ${(error as Error).message}`, "DEPENDENCY_UNAVAILABLE");
      });
    } finally {
      completeSteps--;
    }
    adopt(outcome);
    failTaskIf(outcome, "after-step");
    completeRequestId ??= args.requestId;
    const mustWait = !outcome.refusal && args.waitSeconds > 0 && phaseOf(state!) === "SCANNING";
    // Only where the step's answer arrived in this same task: a recorded answer replays its mark.
    if (!mustWait) failTaskIf(outcome, "after-update");
    if (outcome.refusal) throw ApplicationFailure.nonRetryable(outcome.refusal.message, outcome.refusal.reason);
    if (mustWait) await condition(() => phaseOf(state!) !== "SCANNING", `${args.waitSeconds}s`);
    if (!object) throw ApplicationFailure.nonRetryable("upload not found", "OBJECT_NOT_FOUND");
    return object;
  });
  setHandler(retentionChangedSignal, () => {
    stale = true;
  });

  for (;;) {
    if (stale || !state) await reload();
    // Not awaited otherwise: an await adds promise hops to runs recorded before the patch.
    if (answersFirst) await completesAnswered();
    const current = state!;
    const phase = phaseOf(current);
    if (phase === "GONE") {
      // Runs recorded before the status followed the object to its end did not upsert here.
      // Handlers first: a complete that ends the object in the same task as this branch must have
      // its completion before the upsert on replay too, where their order within one activation
      // can differ from the live run's (test/fixtures/histories/update-refused-then-end-status.json).
      await condition(allHandlersFinished);
      if (patched("search-status-at-end")) describe(current);
      return { outcome: "DELETED", status: current.status };
    }
    if (phase === "PENDING") {
      // Held: never abandoned while the hold lasts; a release signals.
      const deadline = removalBlocked({ legalHold: current.held }) ? undefined : current.retentionExpiresAt;
      const moved = await condition(() => stale || state !== current, deadline ? msUntil(deadline) : undefined);
      if (!moved) await expire();
      continue;
    }
    if (phase === "SCANNING") {
      await runScan();
      continue;
    }
    describe(current);
    if (removalBlocked({ legalHold: current.held }) || !current.retentionExpiresAt) {
      // Nothing to wait for: the workflow ends, and a later change starts it again.
      await condition(allHandlersFinished);
      if (!stale) return { outcome: "SETTLED", status: current.status };
      continue;
    }
    const changed = await condition(() => stale || state !== current, msUntil(current.retentionExpiresAt));
    if (!changed) await expire();
  }

  /**
   * Returns once no complete is running its step, and never within the activation in which a
   * step answered. A complete's step and one of the loop's own (the first read of a resumed run, a
   * re-read, expiry, the scan's verdict) can run side by side; live they may answer in separate
   * activations, the complete's first, while on replay both markers resolve in one activation,
   * where the loop's next command (a status upsert, a timer) could overtake the complete's answer:
   * a nondeterminism error (test/integration/lifecycle-step-order.test.ts). A condition that is
   * false when made is evaluated again only after the activation's microtasks, by which time every
   * complete whose step answered has answered too; so in both the complete's answer comes first.
   */
  async function completesAnswered(): Promise<void> {
    let armed = false;
    const answered = condition(() => armed && completeSteps === 0);
    armed = true;
    await answered;
  }

  async function expire(): Promise<void> {
    stale = false;
    loopStepStarts();
    let outcome: WithFault<StepOutcome>;
    try {
      outcome = await steps.expireObject.executeWithOptions({ ...STEP, summary: STEP_SUMMARIES.expireObject }, [ref]);
    } finally {
      loopSteps--;
    }
    adopt(outcome);
    failTaskIf(outcome, "after-step");
  }

  async function runScan(): Promise<void> {
    let result;
    try {
      result = await scan.scanObject.executeWithOptions({ ...SCAN, summary: STEP_SUMMARIES.scanObject }, [ref]);
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      // Every attempt failed (storage down for long): wait for the sweep to re-drive the object.
      await condition(() => stale);
      return;
    }
    if (!result) {
      stale = true;
      return;
    }
    stale = false;
    loopStepStarts();
    let finished: WithFault<StepOutcome>;
    try {
      finished = await steps.finishScan.executeWithOptions({ ...STEP, summary: STEP_SUMMARIES.finishScan }, [ref, result, completeRequestId]);
    } finally {
      loopSteps--;
    }
    adopt(finished);
    failTaskIf(finished, "after-step");
  }

  /** Search attributes: set at start, upserted once when the status settles or the object ends (or on a resume). */
  function describe(current: LifecycleState): void {
    const status = operatorStatusOf(current);
    if (shownStatus === status) return;
    const resumed = shownStatus === undefined;
    shownStatus = status;
    upsertSearchAttributes([
      { key: OBJECT_STATUS, value: status },
      ...(resumed
        ? [
            { key: OBJECT_CLASS, value: current.objectClass ?? "" },
            { key: OWNER_ENTITY_TYPE, value: current.ownerEntityType ?? "" },
          ]
        : []),
    ]);
  }
}
