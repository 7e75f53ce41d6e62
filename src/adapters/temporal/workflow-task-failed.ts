import { ServiceError, isGrpcServiceError } from "@temporalio/client";

/** Temporal's default workflow task timeout, which the lifecycle's workflows keep. */
const WORKFLOW_TASK_TIMEOUT_MS = 10_000;

/**
 * How long complete keeps trying while the object's workflow task is failing. sdk-core reports a
 * task's first failure only: an attempt that fails again is left to time out, so the server
 * schedules the next one a workflow task timeout later. The budget outlasts two such waits (a
 * retry that reaches a run which has just ended starts another, whose task may fail twice too,
 * as every step's does under the fault-injection test), with room for a loaded server.
 */
export const TASK_FAILED_RETRY_BUDGET_MS = 3 * WORKFLOW_TASK_TIMEOUT_MS;

/** The longest pause between tries: the next task is picked up within a second of its start. */
const MAX_PAUSE_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * While a workflow task is being retried after a failure, the server refuses new Updates
 * (FAILED_PRECONDITION "Workflow Task in failed state"), and an Update whose task failed (say a
 * signal arrived as the workflow completed) is aborted ("unexpected workflow task failure").
 * Complete is safe to repeat, so it is tried again until the task recovers or the budget is spent,
 * then the error is thrown (`unavailable`).
 */
export async function retryWhileTaskFailed<T>(work: () => Promise<T>, budgetMs = TASK_FAILED_RETRY_BUDGET_MS): Promise<T> {
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const pause = Math.min(MAX_PAUSE_MS, 100 * 2 ** attempt);
      if (!isTaskInFailedState(error) || performance.now() - started + pause > budgetMs) throw error;
      await sleep(pause);
    }
  }
}

export function isTaskInFailedState(error: unknown): boolean {
  const grpc = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(grpc) && grpc.code === 9 /* FAILED_PRECONDITION */ && /workflow task (in failed state|failure)/i.test(grpc.message);
}
