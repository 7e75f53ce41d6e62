/** The settings that matter with replicas: pollers per worker and connections per process. */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.js";
import { parseConfig } from "../../../src/config/config.js";
import type { Env } from "../../../src/config/env.js";
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
  it("default to a simple maximum of workflow task polls (autoscaling opt-in) half on the normal queue, autoscaling activity polls, and a pool of 10", () => {
    const config = parseConfig(SAFE_MODE_ENV);
    expect(config.worker).toMatchObject({
      workflowTaskPollers: { autoscaling: false, minimum: 2, initial: 4, maximum: 8 },
      activityTaskPollers: { autoscaling: true, minimum: 1, initial: 10, maximum: 20 },
      nonStickyToStickyPollRatio: 0.5,
    });
    expect(config.database.poolMax).toBe(10);
  });

  it("follow the environment, and the slots when only those are set", () => {
    const config = parseConfig({
      ...SAFE_MODE_ENV,
      WORKER_WORKFLOW_TASK_POLLERS_AUTOSCALING: "true",
      WORKER_WORKFLOW_TASK_POLLERS_MIN: "3",
      WORKER_WORKFLOW_TASK_POLLERS_INITIAL: "5",
      WORKER_WORKFLOW_TASK_POLLERS_MAX: "6",
      WORKER_ACTIVITY_TASK_POLLERS_INITIAL: "2",
      WORKER_WORKFLOW_TASK_POLLERS_NON_STICKY_RATIO: "1",
      DATABASE_POOL_MAX: "3",
    });
    expect(config.worker).toMatchObject({
      workflowTaskPollers: { autoscaling: true, minimum: 3, initial: 5, maximum: 6 },
      activityTaskPollers: { minimum: 1, initial: 2, maximum: 20 },
      nonStickyToStickyPollRatio: 1,
    });
    expect(config.database.poolMax).toBe(3);
    const small = parseConfig({ ...SAFE_MODE_ENV, WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: "2", WORKER_MAX_CONCURRENT_ACTIVITIES: "4" });
    expect(small.worker).toMatchObject({
      workflowTaskPollers: { minimum: 2, initial: 2, maximum: 2 },
      activityTaskPollers: { minimum: 1, initial: 4, maximum: 4 },
    });
  });

  it("refuse more pollers than slots, bounds out of order, the retired names, a poll ratio outside (0, 1], and an empty pool", () => {
    expect(refused({ WORKER_WORKFLOW_TASK_POLLERS_MAX: "9" })).toBe("WORKER_WORKFLOW_TASK_POLLERS_MAX");
    expect(refused({ WORKER_WORKFLOW_TASK_POLLERS_MIN: "0" })).toBe("WORKER_WORKFLOW_TASK_POLLERS_MIN");
    expect(refused({ WORKER_WORKFLOW_TASK_POLLERS_MIN: "5", WORKER_WORKFLOW_TASK_POLLERS_MAX: "4" })).toBe("WORKER_WORKFLOW_TASK_POLLERS_MIN");
    expect(refused({ WORKER_WORKFLOW_TASK_POLLERS_INITIAL: "1" })).toBe("WORKER_WORKFLOW_TASK_POLLERS_INITIAL");
    expect(refused({ WORKER_MAX_CONCURRENT_ACTIVITIES: "4", WORKER_ACTIVITY_TASK_POLLERS_MAX: "5" })).toBe("WORKER_ACTIVITY_TASK_POLLERS_MAX");
    expect(refused({ WORKER_MAX_WORKFLOW_TASK_POLLS: "4" })).toBe("WORKER_MAX_WORKFLOW_TASK_POLLS");
    expect(refused({ WORKER_MAX_ACTIVITY_TASK_POLLS: "4" })).toBe("WORKER_MAX_ACTIVITY_TASK_POLLS");
    expect(refused({ DATABASE_POOL_MAX: "0" })).toBe("DATABASE_POOL_MAX");
    for (const ratio of ["0", "1.5", "-0.5", "half", "0.5e1"]) {
      expect(refused({ WORKER_WORKFLOW_TASK_POLLERS_NON_STICKY_RATIO: ratio })).toBe("WORKER_WORKFLOW_TASK_POLLERS_NON_STICKY_RATIO");
    }
  });
});
