/**
 * The recorded histories of every path of the object workflow and of the malware re-scan (test/fixtures/histories, written
 * by the integration suite with RECORD_HISTORIES=1) replay against the workflow code: a change
 * that breaks determinism for workflows already running fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Worker } from "@temporalio/worker";
import { describe, expect, it } from "vitest";
import { historyFromFixture } from "../../support/history-fixtures.js";
import { workflowBundlerOptions, workflowsPath } from "../../../src/adapters/temporal/workflow-bundle.js";

const dir = path.join(process.cwd(), "test", "fixtures", "histories");
const files = readdirSync(dir).filter((f) => f.endsWith(".json"));

describe("workflow histories replay (the object workflow, the malware re-scan)", () => {
  it("covers every path", () => {
    for (const name of ["ready", "rejected-then-expired", "ready-streamed", "checksum-mismatch", "abandoned", "hold-and-release", "superseded-then-expired-1", "restored-1", "deleted-while-scanning", "quarantined", "malware-rescan"]) {
      expect(files).toContain(`${name}.json`);
    }
  });

  it("replays each history without non-determinism", { timeout: 120_000 }, async () => {
    const histories = files.map((f) => ({ workflowId: f.replace(/\.json$/, ""), history: historyFromFixture(readFileSync(path.join(dir, f), "utf8")) }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath, bundlerOptions: workflowBundlerOptions, replayName: "unit" }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
  });
});
