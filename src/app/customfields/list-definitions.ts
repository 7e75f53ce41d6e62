import type { Actor } from "../../domain/actor.js";
import { isActiveDefinition, type FieldDefinition } from "../../domain/customfields/definition.js";
import { cachedDefinitions, type CustomFieldsDeps } from "./deps.js";

/** The active definitions of an entity type, by display order (then key), through the cache. */
export async function listDefinitions(deps: CustomFieldsDeps, actor: Actor, entityType: string): Promise<FieldDefinition[]> {
  const defs = await cachedDefinitions(deps, actor.tenantId, entityType);
  return defs
    .filter(isActiveDefinition)
    .sort((a, b) => a.displayOrder - b.displayOrder || (a.fieldKey < b.fieldKey ? -1 : a.fieldKey > b.fieldKey ? 1 : 0));
}
