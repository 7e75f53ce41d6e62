import type { EntityCustomFields } from "../entities/port.js";
import type { CustomFieldsDeps } from "./deps.js";
import { parseFilterQuery } from "./parse-filters.js";
import { resolveValues } from "./resolve-values.js";
import { validateValues } from "./validate-values.js";

/** The custom fields service for an entity module in this process: the same use cases the API calls. */
export function inProcessCustomFields(deps: CustomFieldsDeps): EntityCustomFields {
  return {
    resolveForCreate: (actor, entityType, customFields, context) => resolveValues(deps, actor, { entityType, customFields, context }),
    validateForUpdate: (actor, entityType, customFields, context) => validateValues(deps, actor, { entityType, customFields, context }),
    parseFilters: (actor, entityType, query) => parseFilterQuery(deps, actor, { entityType, query }),
  };
}
