import type { Actor } from "../../domain/actor.js";
import type { RuleContext } from "../../domain/customfields/conditions.js";
import type { ParsedFilter } from "../../domain/customfields/filters.js";
import type { CustomFieldsDeps } from "./deps.js";
import { parseFilterQuery } from "./parse-filters.js";
import { resolveValues } from "./resolve-values.js";
import { validateValues } from "./validate-values.js";

/**
 * The three integration calls of the custom fields service, as an entity module uses them. A
 * module in this process takes inProcessCustomFields(); one in another process would implement
 * the same interface with the generated client. Either way the same use cases answer.
 */
export interface CustomFieldsPort {
  /** Defaults, the caller's values merged over them, validation of every field. */
  resolveForCreate(actor: Actor, entityType: string, values: unknown, context: RuleContext): Promise<Record<string, unknown>>;
  /** Validation (and coercion) of the supplied values only. */
  validateForUpdate(actor: Actor, entityType: string, values: unknown, context: RuleContext): Promise<Record<string, unknown>>;
  /** `fieldKey__op=value` parameters as a typed filter; unknown keys or operators are refused. */
  parseFilters(actor: Actor, entityType: string, query: Readonly<Record<string, string>>): Promise<ParsedFilter>;
}

export function inProcessCustomFields(deps: CustomFieldsDeps): CustomFieldsPort {
  return {
    resolveForCreate: (actor, entityType, customFields, context) => resolveValues(deps, actor, { entityType, customFields, context }),
    validateForUpdate: (actor, entityType, customFields, context) => validateValues(deps, actor, { entityType, customFields, context }),
    parseFilters: (actor, entityType, query) => parseFilterQuery(deps, actor, { entityType, query }),
  };
}
