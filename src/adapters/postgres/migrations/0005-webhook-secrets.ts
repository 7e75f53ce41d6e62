import { Migration } from "@mikro-orm/migrations";

/**
 * Webhook secrets encrypted at rest, rotation with an overlap, and the per-endpoint bound on
 * deliveries in flight.
 *
 * The key is configuration the migrator does not have, so the plain `secret` column only becomes
 * nullable here; `encryptWebhookSecrets` (run by `migrate` right after, in the same advisory lock)
 * moves every plain secret into `secret_ciphertext` and clears it. Until then the stores still sign
 * with the plain one, so nothing breaks between the two steps.
 */
export class WebhookSecrets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table webhook_endpoints
        alter column secret drop not null,
        add column secret_ciphertext text,
        add column previous_secret_ciphertext text,
        add column previous_secret_expires_at timestamptz;`);
    this.addSql(`alter table webhook_endpoints add constraint webhook_endpoints_secret_present check (secret is not null or secret_ciphertext is not null);`);
    // Plain secrets still to encrypt are found without a scan of the table.
    this.addSql(`create index webhook_endpoints_plain_secret on webhook_endpoints (id) where secret is not null;`);

    // Who rotated which endpoint's secret, and when the old one stops signing.
    this.addSql(`
      create table webhook_endpoint_audit (
        id uuid primary key,
        tenant_id text not null,
        endpoint_id uuid not null,
        action text not null,
        actor_id text not null,
        request_id text,
        details jsonb not null default '{}',
        occurred_at timestamptz not null
      );`);
    this.addSql(`create index webhook_endpoint_audit_tenant_endpoint on webhook_endpoint_audit (tenant_id, endpoint_id, occurred_at, id);`);

    // The dispatcher starts, per endpoint, only as many deliveries as its bound leaves room for:
    // the unstarted ones of an endpoint in order, and the count of those started and still pending.
    this.addSql(`create index webhook_deliveries_unstarted_endpoint on webhook_deliveries (endpoint_id, created_at, id) where workflow_started_at is null;`);
    this.addSql(`create index webhook_deliveries_in_flight on webhook_deliveries (endpoint_id) where workflow_started_at is not null and status = 'PENDING';`);
  }
}
