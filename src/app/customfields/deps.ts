import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";
import { DEFAULT_CUSTOM_FIELD_LIMITS, type CustomFieldLimits } from "../../domain/customfields/limits.js";
import type { DefinitionCache } from "./definition-cache.js";
import { profileContext } from "../../domain/organization/profile.js";
import type { OrganizationProfiles } from "../organization/port.js";
import type { FieldDefinitionCatalog } from "./port.js";


/** What the custom field use cases need; wired in src/main. */
export interface CustomFieldsDeps {
  store: FieldDefinitionCatalog;
  cache: DefinitionCache;
  /** How many definitions of one tenant may be `indexed` (CUSTOM_FIELDS_MAX_INDEXED_FIELDS). */
  maxIndexedFields: number;
  /** Live definitions per tenant and entity type (CUSTOM_FIELDS_MAX_DEFINITIONS_PER_ENTITY_TYPE); the domain's default without it. */
  maxDefinitionsPerEntityType?: number;
  now(): Date;
  newId(): string;
  /** Told about failures that do not fail the request (a late cache invalidation). */
  warn(message: string, error: unknown): void;
  /** Pattern and formula bounds from configuration; the domain's defaults without them. */
  limits?: CustomFieldLimits;
  /** The tenants' organization profiles, which rules and formulas see as `organization`. */
  organizations?: Pick<OrganizationProfiles, "find">;
}

export function limitsOf(deps: CustomFieldsDeps): CustomFieldLimits {
  return deps.limits ?? DEFAULT_CUSTOM_FIELD_LIMITS;
}

/** The definitions the values and filters of an entity type are checked against, through the cache. */
export function cachedDefinitions(deps: CustomFieldsDeps, tenantId: string, entityType: string): Promise<FieldDefinition[]> {
  return deps.cache.get(tenantId, entityType, () => deps.store.listLive(tenantId, entityType));
}

/**
 * The tenant's stored organization profile for the rule context, read per call (one primary-key
 * read; not cached, so an update is seen at once); undefined without one, which leaves a caller's
 * `organization` key in place.
 */
export async function organizationContext(deps: CustomFieldsDeps, tenantId: string): Promise<Record<string, unknown> | undefined> {
  const profile = await deps.organizations?.find(tenantId);
  return profile ? profileContext(profile) : undefined;
}

/** Another tenant's definition behaves exactly like one that does not exist. */
export async function findDefinitionOrFail(deps: CustomFieldsDeps, actor: Actor, id: string): Promise<FieldDefinition> {
  const found = await deps.store.findLive(actor.tenantId, id);
  if (!found) throw new AppError("FIELD_DEFINITION_NOT_FOUND", `field definition ${id} not found`);
  return found;
}

/**
 * A definition write between two invalidations: the first (before anything changes) fails the
 * request while the cache is unreachable, so nothing is written that the cache would not learn
 * about; the second (after the commit) makes stale whatever a reader loaded in between. A failure
 * of the second is reported, not thrown, because the write is done: only a reader that loaded in
 * the few milliseconds between the two could then have cached old definitions.
 */
export async function withInvalidation<T>(
  deps: CustomFieldsDeps,
  tenantId: string,
  entityType: string,
  write: () => Promise<T>,
): Promise<T> {
  await deps.cache.invalidate(tenantId, entityType);
  const result = await write();
  try {
    await deps.cache.invalidate(tenantId, entityType);
  } catch (error) {
    deps.warn("custom field cache invalidation after a write failed", error);
  }
  return result;
}

/** Tries `attempt` a few times while it reports a concurrent change (answers undefined). */
export async function retryOnConcurrentChange<T>(attempt: () => Promise<T | undefined>, tries = 3): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
  }
  throw new AppError("VERSION_CONFLICT", "the definition kept changing concurrently; retry");
}
