/**
 * What a run of uploads under faults must leave behind, checked the same way by every test that
 * kills processes mid-load (chaos, scale-out): nothing twice, rows = bucket objects = workflows.
 */
import { expect } from "vitest";
import { lifecycleWorkflowId } from "../../src/domain/files/stored-object.js";
import { bucketKeys, sql, withTemporal } from "./stack-access.js";

/**
 * Each object a client saw has exactly UPLOAD_INITIATED, UPLOAD_COMPLETED and its scan's result
 * (`expected`: object id → READY or REJECTED). Answers every object's trail.
 */
export async function expectExactTrails(tenant: string, expected: ReadonlyMap<string, string>): Promise<{ object_id: string; actions: string }[]> {
  const trails = await sql<{ object_id: string; actions: string }>(
    "select object_id, string_agg(action, ',' order by occurred_at, id) as actions from audit_entries where tenant_id = ? group by object_id",
    [tenant],
  );
  const scanOf = (id: string) => (expected.get(id) === "READY" ? "SCAN_PASSED" : "SCAN_FAILED");
  const badTrails = trails.filter((t) => expected.has(t.object_id)).filter((t) => t.actions !== `UPLOAD_INITIATED,UPLOAD_COMPLETED,${scanOf(t.object_id)}`);
  expect(badTrails).toEqual([]);
  return trails;
}

/**
 * The bucket holds exactly `storageKeys`; every object a client saw has its workflow; a workflow
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
