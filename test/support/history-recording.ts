import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@temporalio/client";
import { Worker } from "@temporalio/worker";
import { historyFixtureJson } from "./history-fixtures.js";
import { lifecycleWorkflowId } from "../../src/domain/files/stored-object.js";
import { replayOptions } from "./replay-options.js";

export const HISTORIES_DIR = path.join(process.cwd(), "test", "fixtures", "histories");

/**
 * Fetches the histories of these objects' workflows and replays them against the workflow code
 * as it is now (a non-deterministic change fails here first). With RECORD_HISTORIES=1 they are
 * also written to test/fixtures/histories, which the unit suite replays on every run.
 */
export async function replayAndRecord(client: Client, tenant: string, objects: { name: string; id: string }[]): Promise<void> {
  await replayAndRecordWorkflows(client, objects.map((object) => ({ name: object.name, workflowId: lifecycleWorkflowId(tenant, object.id) })));
}

/** replayAndRecord for any workflows, named by their ids (the malware re-scan's, for one). */
export async function replayAndRecordWorkflows(client: Client, workflows: { name: string; workflowId: string }[]): Promise<void> {
  const histories = [];
  for (const { name, workflowId } of workflows) {
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    histories.push({ name, workflowId, history });
  }
  const replays = Worker.runReplayHistories(
    await replayOptions("lifecycle"),
    histories.map((h) => ({ workflowId: h.workflowId, history: h.history })),
  );
  for await (const result of replays) {
    if (!result.error) continue;
    // The history that does not replay is the bug report: kept, with the run's data, to read and replay again.
    const kept = path.join(process.cwd(), ".test-data", "failed-replays", `${result.workflowId.replaceAll("/", "_")}.json`);
    mkdirSync(path.dirname(kept), { recursive: true });
    writeFileSync(kept, historyFixtureJson(histories.find((h) => h.workflowId === result.workflowId)!.history));
    throw new Error(`${result.workflowId} does not replay (its history: ${kept}): ${result.error.message}`);
  }
  if (process.env.RECORD_HISTORIES !== "1") return;
  mkdirSync(HISTORIES_DIR, { recursive: true });
  for (const h of histories) writeFileSync(path.join(HISTORIES_DIR, `${h.name}.json`), historyFixtureJson(h.history));
}
