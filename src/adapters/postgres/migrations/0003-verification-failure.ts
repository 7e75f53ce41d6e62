import { Migration } from "@mikro-orm/migrations";

/**
 * Why complete refused and removed an upload (SIZE_MISMATCH or CHECKSUM_MISMATCH; delete_reason
 * says CHECKSUM_MISMATCH for both, as the specification names it). A complete whose answer was
 * lost and that runs again answers the same refusal from this, not "not found".
 */
export class VerificationFailure extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table stored_objects add column verification_failure text;`);
  }
}
