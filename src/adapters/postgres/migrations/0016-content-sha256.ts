import { Migration } from "@mikro-orm/migrations";

/**
 * The SHA-256 (hex) of the stored bytes, kept once complete verified it against the one the client
 * declared at initiate (docs/multipart-uploads.md, integrity): null when none was declared.
 */
export class ContentSha256 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table stored_objects add column content_sha256 text;`);
  }
}
