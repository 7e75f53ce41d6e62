/**
 * What the API answers for Temporal's errors: a server that is down, slow or shedding load is
 * `unavailable` (clients retry), never `internal`; an Update's own failure keeps its reason.
 */
import { ServiceError } from "@temporalio/client";
import { describe, expect, it } from "vitest";
import { translateTemporalError } from "../../../src/adapters/temporal/temporal-errors.js";
import { AppError } from "../../../src/domain/errors.js";

/** A gRPC status error as @grpc/grpc-js builds it, wrapped as the Temporal client throws it. */
function serviceError(code: number, details: string): ServiceError {
  const grpc = Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
  return new ServiceError("Failed to start Workflow", { cause: grpc });
}

function reasonOf(error: Error): string | undefined {
  return error instanceof AppError ? error.reason : undefined;
}

describe("translateTemporalError", () => {
  it.each([
    [14, "connection refused"],
    [4, "context deadline exceeded"],
    [8, "namespace rate limit exceeded"],
    [8, "Workflow is busy."],
    [8, "Too many outstanding Updates on workflow"],
  ])("answers gRPC %i (%s) DEPENDENCY_UNAVAILABLE", (code, details) => {
    expect(reasonOf(translateTemporalError(serviceError(code, details), "complete"))).toBe("DEPENDENCY_UNAVAILABLE");
  });

  it("leaves any other error unknown (internal)", () => {
    const error = serviceError(3, "invalid argument");
    expect(translateTemporalError(error, "complete")).toBe(error);
  });
});
