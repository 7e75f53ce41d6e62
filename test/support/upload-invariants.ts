/**
 * What a run of uploads under faults must leave behind, checked the same way by every test that
 * kills processes mid-load (chaos, scale-out): nothing twice, rows = bucket objects = workflows.
 */
import { expect } from "vitest";
import { lifecycleWorkflowId } from "../../src/domain/files/stored-object.js";
import { bucketKeys, sql, withTemporal } from "./stack-access.js";

/**
 * Each object a client created (`created`: object id → READY or REJECTED, from the client's own
 * answers) has exactly UPLOAD_INITIATED, UPLOAD_COMPLETED and its scan's result: the check starts
 * from the test's objects, so one without any audit entry fails too. Answers every audit trail of
 * the tenant.
 */
export async function expectExactTrails(tenant: string, created: ReadonlyMap<string, string>): Promise<{ object_id: string; actions: string }[]> {
  const trails = await sql<{ object_id: string; actions: string }>(
    "select object_id, string_agg(action, ',' order by occurred_at, id) as actions from audit_entries where tenant_id = ? group by object_id",
    [tenant],
  );
  const trailOf = new Map(trails.map((t) => [t.object_id, t.actions]));
  const scanOf = (status: string) => (status === "READY" ? "SCAN_PASSED" : "SCAN_FAILED");
  const badTrails = [...created]
    .map(([id, status]) => ({ id, actions: trailOf.get(id) ?? "(no audit entries)", expected: `UPLOAD_INITIATED,UPLOAD_COMPLETED,${scanOf(status)}` }))
    .filter((t) => t.actions !== t.expected);
  expect(badTrails).toEqual([]);
  return trails;
}

/**
 * The bucket holds exactly `storageKeys` (the keys the client was given for its objects); every object a client saw has its workflow; a workflow
 * without a row comes from a start whose answer was lost (the client retried with a new id):
 * initiate withdraws it or it ends at its pending deadline, having written nothing, so there are
 * at most `failedInitiates` of them and none has an audit entry.
 */
export async function expectRowsBucketWorkflows(
  tenant: string,
  expected: ReadonlyMap<string, string>,
  storageKeys: readonly string[],
  trails: readonly { object_id: string }[],
  failedInitiates: number,
): Promise<void> {
  expect(await bucketKeys(`tenants/${tenant}/`)).toEqual(new Set(storageKeys));
  const workflows = await withTemporal(async (client) => {
    const ids = new Set<string>();
    for await (const w of client.workflow.list({ query: `TenantId = "${tenant}"` })) ids.add(w.workflowId);
    return ids;
  });
  for (const id of expected.keys()) expect(workflows.has(lifecycleWorkflowId(tenant, id)), id).toBe(true);
  const rows = await sql<{ id: string }>("select id from stored_objects where tenant_id = ?", [tenant]);
  const withRows = new Set(rows.map((r) => lifecycleWorkflowId(tenant, r.id)));
  const orphans = [...workflows].filter((w) => !withRows.has(w));
  expect(orphans.length, orphans.join(", ")).toBeLessThanOrEqual(failedInitiates);
  expect(trails.map((t) => t.object_id).filter((id) => !withRows.has(lifecycleWorkflowId(tenant, id)))).toEqual([]);
}
