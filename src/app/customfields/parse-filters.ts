import type { Actor } from "../../domain/actor.js";
import { parseFilters, type ParsedFilter } from "../../domain/customfields/filters.js";
import { cachedDefinitions, type CustomFieldsDeps } from "./deps.js";

export interface FilterQueryInput {
  entityType: string;
  /** Query parameters that are not standard fields of the entity, name to raw value. */
  query: Readonly<Record<string, string>>;
}

/** For another module's list: the typed filter; an unknown field or operator is invalid_argument. */
export async function parseFilterQuery(deps: CustomFieldsDeps, actor: Actor, input: FilterQueryInput): Promise<ParsedFilter> {
  const defs = await cachedDefinitions(deps, actor.tenantId, input.entityType);
  return parseFilters(input.query, defs);
}
