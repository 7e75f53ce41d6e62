import type { Actor } from "../../domain/actor.js";
import { FIELD_KEY_PATTERN, MAX_FIELD_KEY_LENGTH } from "../../domain/customfields/definition-rules.js";
import { isActiveDefinition, type FieldDefinition } from "../../domain/customfields/definition.js";
import { readPage, type Cursor, type Page } from "../../domain/pagination.js";
import { cachedDefinitions, type CustomFieldsDeps } from "./deps.js";

/** The active definitions of an entity type, by display order (then key), through the cache. */
export async function listDefinitions(deps: CustomFieldsDeps, actor: Actor, entityType: string): Promise<FieldDefinition[]> {
  const defs = await cachedDefinitions(deps, actor.tenantId, entityType);
  return defs.filter(isActiveDefinition).sort((a, b) => a.displayOrder - b.displayOrder || compareKeys(a.fieldKey, b.fieldKey));
}

export interface DefinitionPageRequest {
  entityType: string;
  pageSize: number;
  pageToken: string;
}

/**
 * One page of listDefinitions. The cache holds an entity type's whole list (bounded by what a
 * tenant defines), so a page is cut from it in memory rather than by a keyset query: paging
 * never bypasses the cache and a write's invalidation reaches every page. The keyset is
 * (displayOrder, fieldKey), unique among live definitions; the token carries the display order
 * in its time slot (milliseconds since the epoch) and the key as its id, so a page boundary
 * stays right when definitions are added or removed between pages.
 */
export async function listDefinitionsPage(deps: CustomFieldsDeps, actor: Actor, request: DefinitionPageRequest): Promise<Page<FieldDefinition>> {
  const defs = await listDefinitions(deps, actor, request.entityType);
  const read = async (after: Cursor | undefined, limit: number) => defs.filter((def) => after === undefined || isPast(def, after)).slice(0, limit);
  const pageRequest = { pageSize: request.pageSize, pageToken: request.pageToken, filterKey: `definitions:${request.entityType}` };
  return readPage(pageRequest, read, positionOf, (id) => id.length <= MAX_FIELD_KEY_LENGTH && FIELD_KEY_PATTERN.test(id));
}

function positionOf(def: FieldDefinition): Cursor {
  return { at: new Date(def.displayOrder), id: def.fieldKey };
}

function isPast(def: FieldDefinition, after: Cursor): boolean {
  const order = after.at.getTime();
  return def.displayOrder > order || (def.displayOrder === order && compareKeys(def.fieldKey, after.id) > 0);
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
