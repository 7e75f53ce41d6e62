import { MikroORM, type Options } from "@mikro-orm/postgresql";
import { Migrator } from "@mikro-orm/migrations";
import type { DatabaseLimitsConfig } from "../../config/database-limits.js";
import { AUDIT_COMMIT_FLUSH_AFTER, flushAfterUnflushedCommits, UnflushedCommits } from "./audited-commit.js";
import { AuditEntrySchema } from "./entities/audit-entry.js";
import { CustomerSchema } from "./entities/customer.js";
import { ProductSchema } from "./entities/product.js";
import { FieldDefinitionAuditSchema } from "./entities/field-definition-audit.js";
import { FieldDefinitionSchema } from "./entities/field-definition.js";
import { StoredObjectSchema } from "./entities/stored-object.js";
import { UploadSessionSchema } from "./entities/upload-session.js";
import { WebhookDeliverySchema } from "./entities/webhook-delivery.js";
import { WebhookEndpointSchema } from "./entities/webhook-endpoint.js";
import { migrations } from "./migrations/index.js";
import { encryptPlainWebhookSecrets } from "./webhook-secret-encryption.js";
import type { SecretCipher } from "../webhooks/secret-cipher.js";

export const entities = [
  StoredObjectSchema,
  UploadSessionSchema,
  AuditEntrySchema,
  FieldDefinitionSchema,
  FieldDefinitionAuditSchema,
  CustomerSchema,
  ProductSchema,
  WebhookEndpointSchema,
  WebhookDeliverySchema,
];

/** The session setting the seal trigger reads (migration 0012). */
const AUDIT_CHAIN_OFF = "files.audit_chain=off";

/**
 * Server-side bounds of every session: a runaway query, or a transaction left open by a stuck
 * caller, gives its pooled connection back instead of holding it (and its locks) indefinitely.
 */
function sessionLimits(limits: DatabaseLimitsConfig | undefined, unflushed: UnflushedCommits | undefined) {
  if (!limits) return {};
  const options = startupOptions(limits, unflushed);
  return {
    statement_timeout: limits.statementTimeoutSeconds * 1000,
    idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutSeconds * 1000,
    ...(options ? { options } : {}),
  };
}

/**
 * Startup options, so every pooled connection has them from its first statement on. The
 * benchmark's chain-off run (AUDIT_HASH_CHAIN=off, development mode only): the seal trigger of
 * migration 0012 skips sessions with that setting. With the chain, a pool that listens for
 * unflushed commits (audited-commit.ts) promises to wait for their flush.
 */
function startupOptions(limits: DatabaseLimitsConfig, unflushed: UnflushedCommits | undefined): string | undefined {
  if (!limits.auditHashChain) return `-c ${AUDIT_CHAIN_OFF}`;
  return unflushed ? AUDIT_COMMIT_FLUSH_AFTER.map((option) => `-c ${option}`).join(" ") : undefined;
}

/**
 * `limits`: the API and worker pools; without them (migrations, index builds, tools) statements
 * may run long. `unflushed`: the listener of a pool that waits for the flush of commits the seal
 * answered before it (audited-commit.ts).
 */
export function ormOptions(databaseUrl: string, poolMax = 10, limits?: DatabaseLimitsConfig, unflushed?: UnflushedCommits): Options {
  return {
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    discovery: { warnWhenNoEntities: false },
    // Silent: MikroORM prints two console lines per migration; callers log what was applied, once.
    migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    // Fail fast when the database is gone instead of queueing calls for the pool's default minute.
    driverOptions: { connection: { connectionTimeoutMillis: 3000, ...sessionLimits(limits, unflushed) } },
    pool: { min: 0, max: poolMax, acquireTimeoutMillis: 3000, ...(unflushed ? { afterCreate: unflushed.afterCreate } : {}) },
    allowGlobalContext: false,
    debug: false,
  };
}

/** The API's and worker's pools (with `limits` and the chain on) wait for the flush of commits the seal answered before it. */
export async function openDatabase(databaseUrl: string, poolMax?: number, limits?: DatabaseLimitsConfig): Promise<MikroORM> {
  const unflushed = limits?.auditHashChain ? new UnflushedCommits() : undefined;
  const orm = await MikroORM.init(ormOptions(databaseUrl, poolMax, limits, unflushed));
  if (unflushed) flushAfterUnflushedCommits(orm, unflushed);
  return orm;
}

/** Readiness: a round trip to the database, errors as the driver threw them. */
export async function pingDatabase(orm: MikroORM): Promise<void> {
  await orm.em.fork().execute("select 1");
}

/** Any constant: the advisory lock that serializes migrations of replicas starting together. */
const MIGRATION_LOCK = 0x6d69_6772;

/**
 * Applies pending migrations while holding a transaction-scoped advisory lock, so that several
 * replicas starting at once migrate one after the other (the later ones find nothing to do).
 * Needs a pool of at least two connections: the lock holds one, the migrator uses another.
 */
export async function migrate(orm: MikroORM, webhookSecrets: SecretCipher): Promise<string[]> {
  const knex = orm.em.getConnection().getKnex();
  return knex.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(?)", [MIGRATION_LOCK]);
    const applied = await orm.getMigrator().up();
    // The data half of 0005, which needs the configured key. Never a re-encryption: see there.
    await encryptPlainWebhookSecrets(orm.em.fork(), webhookSecrets);
    return applied.map((m) => m.name);
  });
}
