import { STORAGE_KEY_ROOT } from "../../../domain/files/storage-key.js";
import type { SweepDeps, SweepRun } from "./deps.js";

/**
 * Removes one page of bucket objects under the key layout that no row owns. Objects younger than
 * `minAgeSeconds` (the upload URL lifetime) may still be arriving and are left alone.
 */
export async function removeOrphanObjects(
  deps: SweepDeps,
  startAfter: string | undefined,
  minAgeSeconds: number,
  run: Pick<SweepRun, "heartbeat" | "warn">,
): Promise<{ removed: number; failed: number; nextStartAfter?: string }> {
  const page = await deps.storage.list(STORAGE_KEY_ROOT, startAfter);
  const cutoff = deps.now().getTime() - minAgeSeconds * 1000;
  const old = page.objects.filter((o) => o.lastModified.getTime() < cutoff);
  const owned = await deps.objects.liveStorageKeys(old.map((o) => o.key));
  let removed = 0;
  let failed = 0;
  for (const object of old) {
    if (owned.has(object.key)) continue;
    try {
      await deps.storage.delete(object.key);
      removed++;
    } catch (error) {
      // No row to record it on: the key stays in the bucket and the next run lists it again.
      failed++;
      run.warn("orphan delete failed", { key: object.key, error: (error as Error).message });
    }
  }
  run.heartbeat(page.nextStartAfter);
  return { removed, failed, nextStartAfter: page.nextStartAfter };
}
