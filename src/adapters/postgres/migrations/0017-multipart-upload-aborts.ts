import { Migration } from "@mikro-orm/migrations";

/**
 * How many incomplete multipart uploads the workers aborted, by who ended them (`deadline`: an
 * object's workflow at its abandoned-upload deadline; `sweep`: the retention sweep). The worker
 * serves no metrics; the API reports these totals at /metrics (docs/multipart-uploads.md).
 */
export class MultipartUploadAborts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table multipart_upload_aborts (aborted_by text primary key, aborted bigint not null);`);
  }
}
