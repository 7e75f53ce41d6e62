import type { SweepDeps, SweepRun } from "./deps.js";

/** Tells the workflows of objects still SCANNING past their scan deadline to act; answers how many. */
export async function redriveStuckScans(deps: SweepDeps, batchSize: number, run: Pick<SweepRun, "heartbeat">): Promise<number> {
  const before = new Date(deps.now().getTime() - deps.scanDeadlineSeconds * 1000);
  const stuck = await deps.objects.stuckScans(before, batchSize);
  for (const row of stuck) {
    run.heartbeat(row.id);
    await deps.redrive({ tenantId: row.tenantId, objectId: row.id });
  }
  return stuck.length;
}
