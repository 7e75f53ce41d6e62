import type { MikroORM } from "@mikro-orm/postgresql";
import { withDatabase } from "./database-work.js";

/** Who aborted incomplete multipart uploads in a worker: an object's workflow at its deadline, or the sweep. */
export type WorkerAbortedBy = "deadline" | "sweep";

/** Adds `count` aborts to the running total of `by` (one upsert; nothing for none). */
export async function recordMultipartAborts(orm: MikroORM, by: WorkerAbortedBy, count: number): Promise<void> {
  if (count <= 0) return;
  await withDatabase(orm, (em) =>
    em.getConnection().execute(
      `insert into multipart_upload_aborts (aborted_by, aborted) values (?, ?)
         on conflict (aborted_by) do update set aborted = multipart_upload_aborts.aborted + excluded.aborted`,
      [by, count],
    ),
  );
}

/** The totals, for /metrics. */
export async function readMultipartAborts(orm: MikroORM): Promise<{ by: string; count: number }[]> {
  const rows = await withDatabase(orm, (em) =>
    em.getConnection().execute<{ by: string; count: string }[]>(`select aborted_by as by, aborted as count from multipart_upload_aborts`),
  );
  return rows.map((row) => ({ by: row.by, count: Number(row.count) }));
}
