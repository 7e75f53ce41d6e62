/**
 * Expression indexes of `indexed` custom fields: each one an index on a table all tenants share,
 * so a tenant has only so many; the worker builds them one at a time (src/adapters/postgres/
 * custom-field-index-builder.ts), looking for work every `buildIntervalSeconds`.
 */
import type { Env } from "./env.js";
import { integer } from "./env-values.js";

export interface CustomFieldIndexConfig {
  maxIndexedFieldsPerTenant: number;
  buildIntervalSeconds: number;
}

export function parseCustomFieldIndexes(env: Env): CustomFieldIndexConfig {
  return {
    maxIndexedFieldsPerTenant: integer(env, "CUSTOM_FIELDS_MAX_INDEXED_FIELDS", 10, 0),
    buildIntervalSeconds: integer(env, "CUSTOM_FIELD_INDEX_BUILD_INTERVAL_SECONDS", 5),
  };
}
