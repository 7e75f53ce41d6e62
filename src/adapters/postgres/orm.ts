import { MikroORM, type Options } from "@mikro-orm/postgresql";
import { Migrator } from "@mikro-orm/migrations";
import { AuditEntrySchema } from "./entities/audit-entry.js";
import { CustomerSchema } from "./entities/customer.js";
import { FieldDefinitionAuditSchema } from "./entities/field-definition-audit.js";
import { FieldDefinitionSchema } from "./entities/field-definition.js";
import { StoredObjectSchema } from "./entities/stored-object.js";
import { UploadSessionSchema } from "./entities/upload-session.js";
import { WebhookDeliverySchema } from "./entities/webhook-delivery.js";
import { WebhookEndpointSchema } from "./entities/webhook-endpoint.js";
import { migrations } from "./migrations/index.js";

export const entities = [
  StoredObjectSchema,
  UploadSessionSchema,
  AuditEntrySchema,
  FieldDefinitionSchema,
  FieldDefinitionAuditSchema,
  CustomerSchema,
  WebhookEndpointSchema,
  WebhookDeliverySchema,
];

export function ormOptions(databaseUrl: string, poolMax = 10): Options {
  return {
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    discovery: { warnWhenNoEntities: false },
    migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
    // Fail fast when the database is gone instead of queueing calls for the pool's default minute.
    driverOptions: { connection: { connectionTimeoutMillis: 3000 } },
    pool: { min: 0, max: poolMax, acquireTimeoutMillis: 3000 },
    allowGlobalContext: false,
    debug: false,
  };
}

export async function openDatabase(databaseUrl: string, poolMax?: number): Promise<MikroORM> {
  return MikroORM.init(ormOptions(databaseUrl, poolMax));
}

export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
