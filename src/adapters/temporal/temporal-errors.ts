import { ServiceError, WorkflowNotFoundError, WorkflowUpdateFailedError, isGrpcServiceError } from "@temporalio/client";
import { ApplicationFailure, NamespaceNotFoundError } from "@temporalio/common";
import { AppError, type ErrorReason } from "../../domain/errors.js";
import { isTaskInFailedState } from "./workflow-task-failed.js";

/** Temporal's errors as domain errors: an Update's failure keeps its reason; an unreachable or overloaded server is `unavailable`. */
export function translateTemporalError(error: unknown, action: string): Error {
  if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
    const reason = (error.cause.type ?? "INTERNAL") as ErrorReason;
    return new AppError(reason, error.cause.message, { cause: error });
  }
  if (error instanceof WorkflowNotFoundError) {
    return new AppError("OBJECT_NOT_FOUND", "upload not found", { cause: error });
  }
  // The configured namespace is registered before the service starts; the Temporal server (on
  // PostgreSQL) answers "namespace not found" while its own database is unreachable.
  if (error instanceof NamespaceNotFoundError) {
    return new AppError("DEPENDENCY_UNAVAILABLE", `workflow service unavailable (${action}); retry shortly`, { cause: error });
  }
  const grpc = error instanceof ServiceError ? error.cause : error;
  // RESOURCE_EXHAUSTED: the server sheds load (its rate limits, a busy workflow, too many Updates
  // in flight); it passes, and the client has already retried it a few times.
  const transient = [4 /* DEADLINE_EXCEEDED */, 8 /* RESOURCE_EXHAUSTED */, 14 /* UNAVAILABLE */];
  const unreachable = isTaskInFailedState(error) || (isGrpcServiceError(grpc) && transient.includes(grpc.code));
  if (unreachable || /ECONNREFUSED|UNAVAILABLE|deadline exceeded/i.test(String((grpc as Error)?.message))) {
    return new AppError("DEPENDENCY_UNAVAILABLE", `workflow service unavailable (${action}); retry shortly`, { cause: error });
  }
  return error as Error;
}
