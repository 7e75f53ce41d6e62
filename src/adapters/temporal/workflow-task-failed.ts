import { ServiceError, isGrpcServiceError } from "@temporalio/client";

/**
 * While a workflow task is being retried after a failure, the server refuses new Updates
 * (FAILED_PRECONDITION "Workflow Task in failed state"), and an Update whose task failed (say a
 * signal arrived as the workflow completed) is aborted ("unexpected workflow task failure").
 * The next task is usually a moment away, and complete is safe to repeat, so it is tried again
 * for a few seconds before `unavailable`.
 */
export async function retryWhileTaskFailed<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isTaskInFailedState(error) || attempt >= 8) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
    }
  }
}

export function isTaskInFailedState(error: unknown): boolean {
  const grpc = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(grpc) && grpc.code === 9 /* FAILED_PRECONDITION */ && /workflow task (in failed state|failure)/i.test(grpc.message);
}
