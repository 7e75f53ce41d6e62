/**
 * Fault injection: a second API server and worker (their own task queue) with
 * FAULT_INJECTION=workflow-tasks, so every lifecycle step's workflow task fails once after the
 * step ran, and complete's Update fails once more at its end. Temporal retries each task, the
 * step runs again, and every path must still end exactly as without faults: the decisions follow
 * from the persisted state a step answers, never from whether the step ran before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecycleWorkflowId } from "../../src/domain/files/stored-object.js";
import { tokenFor, uniqueTenant } from "../support/clients.js";
import { replayAndRecord } from "../support/history-recording.js";
import { awaitEnds, FilesApi, LIFECYCLE_PATHS, type ExpectedEnd } from "../support/lifecycle-paths.js";
import { startProcessPair, type ProcessPair } from "../support/process-pair.js";
import { sql, withTemporal } from "../support/stack-access.js";

let pair: ProcessPair;

beforeAll(async () => {
  pair = await startProcessPair("faults", { DEVELOPMENT_MODE: "true", FAULT_INJECTION: "workflow-tasks" });
}, 180_000);

afterAll(async () => {
  await pair?.supervisor.stopAll();
});

describe("every workflow task of the lifecycle fails once", () => {
  it("and every path still ends right, with an exact audit trail", { timeout: 300_000 }, async () => {
    const tenant = uniqueTenant("faults");
    const api = new FilesApi(pair.baseUrl, await tokenFor(tenant), tenant);
    const ends: ExpectedEnd[] = (
      await Promise.all(
        LIFECYCLE_PATHS.map(async (p) => {
          const started = Date.now();
          const result = await p.run(api);
          if (process.env.TEST_STACK_VERBOSE) console.log(`${p.name}: ${Date.now() - started} ms`);
          return result;
        }),
      )
    ).flat();
    expect(await awaitEnds(tenant, ends, 120_000)).toEqual([]);

    // The faults really happened: the histories hold failed workflow tasks.
    const failed = await withTemporal(async (client) => {
      let count = 0;
      for (const end of ends.slice(0, 5)) {
        const history = await client.workflow.getHandle(lifecycleWorkflowId(tenant, end.id)).fetchHistory();
        count += (history.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes).length;
      }
      return count;
    });
    expect(failed).toBeGreaterThan(0);
    // Histories with failed tasks in them replay too (and are recorded beside the plain ones).
    await withTemporal((client) => replayAndRecord(client, tenant, ends.map((end, i) => ({ name: `faults-${i + 1}`, id: end.id }))));

    // One workflow per object: nothing started twice, and no row without its workflow.
    const rows = await sql<{ id: string }>("select id from stored_objects where tenant_id = ?", [tenant]);
    const workflows = await withTemporal(async (client) => {
      const ids = new Set<string>();
      for await (const w of client.workflow.list({ query: `TenantId = "${tenant}"` })) ids.add(w.workflowId);
      return ids;
    });
    expect([...workflows].sort()).toEqual(rows.map((r) => lifecycleWorkflowId(tenant, r.id)).sort());
  });
});
