/**
 * The Temporal floor of the upload engine: the same workflow shape as objectLifecycle for an
 * object of a class without retention, as the bench uploads (started at initiate with a start
 * delay, woken by an Update-with-start whose handler answers READY, the status upserted once, then
 * the workflow ends), with none of its work (no local activity, no database, no S3). What this
 * costs is what one workflow per object costs on this Temporal server and this SDK, whatever the
 * product does inside it.
 */
import { allHandlersFinished, condition, defineUpdate, setHandler, upsertSearchAttributes } from "@temporalio/workflow";
import { OBJECT_STATUS } from "../../workflows/search-attributes.js";

export const floorCompleteUpdate = defineUpdate<{ status: string }, []>("complete");

export async function floorObject(): Promise<void> {
  let completed = false;
  setHandler(floorCompleteUpdate, () => {
    completed = true;
    return { status: "READY" };
  });
  await condition(() => completed);
  upsertSearchAttributes([{ key: OBJECT_STATUS, value: "READY" }]);
  await condition(allHandlersFinished);
}
