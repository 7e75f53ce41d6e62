import type { SweepDeps, SweepRun } from "./deps.js";

/**
 * Aborts one page of incomplete multipart uploads started longer ago than the abandoned-upload
 * deadline: no object can complete them any more (its workflow aborts its own at the deadline;
 * this catches what that missed, and uploads whose initiate never stored its rows).
 */
export async function abortStaleMultipartUploads(
  deps: SweepDeps,
  after: { key: string; uploadId: string } | undefined,
  run: Pick<SweepRun, "heartbeat" | "warn">,
): Promise<{ aborted: number; next?: { key: string; uploadId: string } }> {
  const before = new Date(deps.now().getTime() - deps.pendingUploadSeconds * 1000);
  const page = await deps.storage.listStaleMultipart(before, after);
  let aborted = 0;
  for (const upload of page.uploads) {
    try {
      await deps.storage.abortMultipartUpload(upload.key, upload.uploadId);
      aborted++;
    } catch (error) {
      // Listed again by the next run.
      run.warn("stale multipart abort failed", { key: upload.key, error: (error as Error).message });
    }
  }
  run.heartbeat(page.next);
  return { aborted, next: page.next };
}
