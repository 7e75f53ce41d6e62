import { Migration } from "@mikro-orm/migrations";

/**
 * Indexes that keep the per-tenant quota counts small: initiate counts the tenant's pending uploads
 * in its own statement (at most up to the limit), and the webhook dispatcher counts each tenant's
 * deliveries in flight for its fair share.
 */
export class TenantQuotas extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index stored_objects_tenant_pending on stored_objects (tenant_id) where status = 'PENDING_UPLOAD' and deleted_at is null;`);
    this.addSql(`create index webhook_deliveries_tenant_in_flight on webhook_deliveries (tenant_id) where workflow_started_at is not null and status = 'PENDING';`);
  }
}
