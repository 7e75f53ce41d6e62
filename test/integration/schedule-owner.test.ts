/**
 * The retention-sweep and audit-checkpoints schedules have one owner per namespace: workers of two
 * other deployments (their own task queues, schedules on) starting together next to the suite's
 * worker leave both schedules pointing at the suite's queues, and each says so once per schedule.
 * Before owners, the last worker to start re-pointed them at its own queue.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { AUDIT_CHECKPOINT_SCHEDULE_ID } from "../../src/adapters/temporal/audit-checkpoint-schedule.js";
import { SWEEP_SCHEDULE_ID } from "../../src/adapters/temporal/sweep-schedule.js";
import { ProcessSupervisor } from "../support/process-supervisor.js";
import { stackConfig, withTemporal } from "../support/stack-access.js";

const others: ProcessSupervisor[] = [];

afterAll(async () => {
  await Promise.all(others.map((s) => s.stopAll()));
});

function otherDeployment(name: string): { supervisor: ProcessSupervisor; log: string } {
  const dir = path.join(process.cwd(), ".test-data", `${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const supervisor = new ProcessSupervisor(
    process.cwd(),
    { ...inject("stackEnv"), METRICS_PORT: "0", TEMPORAL_TASK_QUEUE: `${name}-${process.pid}`, WEBHOOK_TASK_QUEUE: `${name}-${process.pid}-webhooks`, WORKER_SCHEDULES: "true" },
    dir,
  );
  others.push(supervisor);
  return { supervisor, log: path.join(dir, "worker.log") };
}

async function scheduled(): Promise<Record<string, { taskQueue: string; owner: unknown }>> {
  return withTemporal(async (client) => {
    const result: Record<string, { taskQueue: string; owner: unknown }> = {};
    for (const id of [SWEEP_SCHEDULE_ID, AUDIT_CHECKPOINT_SCHEDULE_ID]) {
      const description = await client.schedule.getHandle(id).describe();
      result[id] = { taskQueue: description.action.type === "startWorkflow" ? description.action.taskQueue : "", owner: description.memo?.owner };
    }
    return result;
  });
}

describe("schedule ownership", () => {
  it("workers of other deployments starting at the same moment never re-point the schedules", { timeout: 300_000 }, async () => {
    const suite = stackConfig();
    const owned = {
      [SWEEP_SCHEDULE_ID]: { taskQueue: suite.temporal.taskQueue, owner: suite.temporal.taskQueue },
      [AUDIT_CHECKPOINT_SCHEDULE_ID]: { taskQueue: suite.temporal.taskQueue, owner: suite.temporal.taskQueue },
    };
    expect(await scheduled()).toEqual(owned);

    const blue = otherDeployment("deploy-blue");
    const green = otherDeployment("deploy-green");
    await Promise.all([blue.supervisor.startWorker(), green.supervisor.startWorker()]);

    expect(await scheduled()).toEqual(owned);
    for (const { log } of [blue, green]) {
      const leftAlone = readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line.includes("left alone"))
        .map((line) => JSON.parse(line) as { scheduleId: string; storedOwner: string });
      expect(leftAlone.map((l) => [l.scheduleId, l.storedOwner]).sort()).toEqual([
        [SWEEP_SCHEDULE_ID, suite.temporal.taskQueue],
        [AUDIT_CHECKPOINT_SCHEDULE_ID, suite.temporal.taskQueue],
      ].sort());
    }
  });
});
