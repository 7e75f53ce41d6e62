/**
 * A multipart upload left with a part stored and never completed is aborted at its deadline
 * (RETENTION_TEMP_UPLOAD_SECONDS, 30 s in the test stack): apart from multipart-uploads.test.ts,
 * which counts the stack's part PUTs and needs it alone, so that this wait overlaps other files.
 */
import { describe, expect, it } from "vitest";
import { tokenFor, uniqueTenant } from "../support/clients.js";
import { apiCounter, csvOf, incompleteUploadsOf, initiateMultipart, MIB, sendParts } from "../support/multipart.js";
import { waitForStatus } from "../support/uploads.js";

describe("multipart uploads at their deadline", () => {
  it("an abandoned multipart upload is aborted at its deadline: ListMultipartUploads is empty afterwards", { timeout: 90_000 }, async () => {
    const token = await tokenFor(uniqueTenant());
    const started = await initiateMultipart(token, "IMPORT_FILE", "text/csv", 20 * MIB);
    const id = started.storedObject.id;
    const abortedBefore = await apiCounter("multipart_uploads_aborted_by_worker_total", 'by="deadline"');
    await sendParts(token, id, [{ partNumber: 1, bytes: csvOf(8 * MIB) }]);
    expect(await incompleteUploadsOf(started.storedObject.storageKey)).toBe(1);
    // RETENTION_TEMP_UPLOAD_SECONDS is 30 s in the test stack (global-setup.ts).
    await waitForStatus(token, id, ["GONE"], 60_000);
    await expect.poll(() => incompleteUploadsOf(started.storedObject.storageKey), { timeout: 10_000, interval: 200 }).toBe(0);
    // The worker's abort is counted where the API reports it (the worker serves no metrics).
    await expect.poll(async () => (await apiCounter("multipart_uploads_aborted_by_worker_total", 'by="deadline"')) - abortedBefore).toBeGreaterThanOrEqual(1);
  });
});
