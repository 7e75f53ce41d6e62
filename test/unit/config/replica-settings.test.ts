/** The settings that matter with replicas: pollers per worker and connections per process. */
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, type Env } from "../../../src/config.js";
import { SAFE_MODE_ENV } from "../../support/config-env.js";

function refused(overrides: Env): string {
  try {
    parseConfig({ ...SAFE_MODE_ENV, ...overrides });
  } catch (error) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

describe("replica settings", () => {
  it("default to the SDK's pollers, min(10, slots), and a pool of 10", () => {
    const config = parseConfig(SAFE_MODE_ENV);
    expect(config.worker).toMatchObject({ maxConcurrentWorkflowTaskPolls: 8, maxConcurrentActivityTaskPolls: 10 });
    expect(config.database.poolMax).toBe(10);
  });

  it("follow the environment", () => {
    const config = parseConfig({ ...SAFE_MODE_ENV, WORKER_MAX_WORKFLOW_TASK_POLLS: "2", WORKER_MAX_ACTIVITY_TASK_POLLS: "4", DATABASE_POOL_MAX: "3" });
    expect(config.worker).toMatchObject({ maxConcurrentWorkflowTaskPolls: 2, maxConcurrentActivityTaskPolls: 4 });
    expect(config.database.poolMax).toBe(3);
  });

  it("refuse more polls than slots, fewer than the SDK accepts, and an empty pool", () => {
    expect(refused({ WORKER_MAX_WORKFLOW_TASK_POLLS: "9" })).toBe("WORKER_MAX_WORKFLOW_TASK_POLLS");
    expect(refused({ WORKER_MAX_WORKFLOW_TASK_POLLS: "1" })).toBe("WORKER_MAX_WORKFLOW_TASK_POLLS");
    expect(refused({ WORKER_MAX_CONCURRENT_ACTIVITIES: "4", WORKER_MAX_ACTIVITY_TASK_POLLS: "5" })).toBe("WORKER_MAX_ACTIVITY_TASK_POLLS");
    expect(refused({ DATABASE_POOL_MAX: "0" })).toBe("DATABASE_POOL_MAX");
  });
});
