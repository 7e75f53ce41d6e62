import { Migration } from "@mikro-orm/migrations";

/**
 * A storage delete that keeps failing is recorded on its row: in how many sweep runs it failed
 * (counted once per run, so a retried activity does not count twice), and when the sweep gave up
 * on it. The sweep pages pending deletes in (deleted_at, id) order and skips given-up rows; the
 * index serves that order.
 */
export class StorageDeleteFailures extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table stored_objects
      add column storage_delete_failed_runs integer not null default 0,
      add column storage_delete_failed_run text,
      add column storage_delete_abandoned_at timestamptz;`);
    this.addSql(`create index stored_objects_storage_delete_queue on stored_objects (deleted_at, id)
      where storage_delete_pending and storage_delete_abandoned_at is null;`);
  }
}
