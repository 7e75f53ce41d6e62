import type { FaultPoint } from "./lifecycle-types.js";

/**
 * Test-only fault injection (FAULT_INJECTION=workflow-tasks, refused in production): the first
 * answer of each step of each workflow asks the workflow to fail its task after adopting it, so
 * Temporal retries the task and the step runs again, exactly as when a workflow task times out
 * after its local activity ran. Complete's second answer asks for a failure at the end of the
 * Update instead. Counted per worker process: a restarted worker injects again, harmlessly.
 */
export class FaultInjector {
  private readonly calls = new Map<string, number>();

  next(workflowKey: string, step: string): FaultPoint | undefined {
    const key = `${workflowKey}/${step}`;
    const count = (this.calls.get(key) ?? 0) + 1;
    this.calls.set(key, count);
    if (count === 1) return "after-step";
    if (count === 2 && step === "verifyAndComplete") return "after-update";
    return undefined;
  }
}
