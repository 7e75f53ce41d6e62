import type { AppError } from "../errors.js";
import { quotaExceeded } from "../quotas.js";

/**
 * Every live definition of an entity type is read, resolved and validated on each create of that
 * type, and cached as one entry, so a tenant may define only so many per entity type.
 *
 * `live`: the tenant's live definitions of the entity type, counted while no other create of the
 * same tenant and entity type can change that number.
 */
export function definitionLimitError(live: number, limit: number, entityType: string): AppError | undefined {
  if (live < limit) return undefined;
  return quotaExceeded("field_definitions", limit, `a tenant may define at most ${limit} custom fields for ${entityType}; delete one first`, { entityType });
}

/** Well above any form a person fills in, well below what makes every create of the type slow. */
export const DEFAULT_MAX_DEFINITIONS_PER_ENTITY_TYPE = 200;
