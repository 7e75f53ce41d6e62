import { createId } from "@paralleldrive/cuid2";
import type { MikroORM } from "@mikro-orm/postgresql";
import { v7 as uuidv7 } from "uuid";
import type { Config } from "../config/config.js";
import type { Logger } from "../logger.js";
import { MemoryKeyValueStore } from "../adapters/cache/memory-key-value.js";
import { RedisKeyValueStore } from "../adapters/cache/redis-key-value.js";
import { CustomerStore } from "../adapters/postgres/customer-store.js";
import { ProductStore } from "../adapters/postgres/product-store.js";
import { FieldDefinitionStore } from "../adapters/postgres/field-definition-store.js";
import { OrganizationProfileStore } from "../adapters/postgres/organization-profile-store.js";
import { DefinitionCache } from "../app/customfields/definition-cache.js";
import type { CustomFieldsDeps } from "../app/customfields/deps.js";
import { inProcessCustomFields } from "../app/customfields/in-process-custom-fields.js";
import type { KeyValueStore } from "../app/customfields/port.js";
import type { CustomersDeps } from "../app/customers/deps.js";
import type { ProductsDeps } from "../app/products/deps.js";
import type { OrganizationDeps } from "../app/organization/deps.js";

export interface CustomFieldsModule {
  customFields: CustomFieldsDeps;
  customers: CustomersDeps;
  products: ProductsDeps;
  /** The tenants' organization profiles, which rules and formulas see as `organization`. */
  organization: OrganizationDeps;
  pingCache(): Promise<void>;
  /** Cache hits and misses of all tenants, for /metrics. */
  cacheTotals(): Promise<{ hits: number; misses: number }>;
  close(): Promise<void>;
}

/**
 * Custom fields and the entity modules on it (Customers, Products). The definition cache is Redis when REDIS_URL
 * is set (needed as soon as more than one API process runs: invalidation must reach them all), an
 * in-process map otherwise. The entity modules reach custom fields only through EntityCustomFields.
 */
export async function createCustomFieldsModule(config: Config, orm: MikroORM, logger: Logger): Promise<CustomFieldsModule> {
  const kv: KeyValueStore = config.redisUrl ? await RedisKeyValueStore.connect(config.redisUrl) : new MemoryKeyValueStore();
  logger.info({ cache: config.redisUrl ? "redis" : "in-process" }, "custom field definition cache");
  const warn = (message: string, error: unknown) => logger.warn({ err: error }, message);
  const cache = new DefinitionCache(kv, config.customFieldsCacheTtlSeconds, (error) => warn("custom field cache read failed; using the database", error));
  const organization: OrganizationDeps = { store: new OrganizationProfileStore(orm), now: () => new Date() };
  const fields: CustomFieldsDeps = {
    store: new FieldDefinitionStore(orm),
    cache,
    maxIndexedFields: config.customFieldIndexes.maxIndexedFieldsPerTenant,
    maxDefinitionsPerEntityType: config.customFieldDefinitions.maxPerEntityType,
    now: () => new Date(),
    newId: () => createId(),
    warn,
    limits: config.customFieldLimits,
    organizations: organization.store,
  };
  const entityDeps = { customFields: inProcessCustomFields(fields), now: () => new Date(), newId: () => uuidv7() };
  const customers: CustomersDeps = { store: new CustomerStore(orm), ...entityDeps };
  const products: ProductsDeps = { store: new ProductStore(orm), ...entityDeps };
  return {
    customFields: fields,
    customers,
    products,
    organization,
    pingCache: () => kv.ping(),
    cacheTotals: () => cache.totals(),
    close: () => kv.close(),
  };
}
