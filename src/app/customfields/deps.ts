import { AppError } from "../../domain/errors.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";
import type { Actor } from "../../domain/files/stored-object.js";
import type { DefinitionCache } from "./definition-cache.js";

export type { Actor };

export type DefinitionAction = "CREATED" | "UPDATED" | "DELETED";

/** One audit row: who changed which definition, when, between which versions, and what. */
export interface DefinitionAudit {
  definitionId: string;
  action: DefinitionAction;
  actor: Actor;
  oldVersion: number | null;
  newVersion: number;
  /** Per changed field `{old, new}`; a create records the whole definition under `new`. */
  changes: Record<string, unknown>;
  at: Date;
}

/** The fields an update may write (identity, version and timestamps are the store's). */
export type DefinitionChanges = Partial<
  Pick<
    FieldDefinition,
    | "fieldLabel"
    | "description"
    | "fieldType"
    | "isRequired"
    | "displayOrder"
    | "defaultStrategy"
    | "defaultValue"
    | "computedFormula"
    | "defaultRules"
    | "validation"
    | "validationRules"
    | "uiConfig"
    | "isActive"
    | "indexed"
  >
>;

export interface FieldDefinitionStorePort {
  /** Definitions not soft-deleted (active and inactive), by display order then key. */
  listLive(tenantId: string, entityType: string): Promise<FieldDefinition[]>;
  findLive(tenantId: string, id: string): Promise<FieldDefinition | undefined>;
  /** Inserts with its audit row; a live definition with the same key is FIELD_KEY_EXISTS. */
  insert(def: FieldDefinition, audit: DefinitionAudit): Promise<void>;
  /**
   * Writes `changes`, version `fromVersion + 1`, only while the stored version is `fromVersion`;
   * undefined when it is not (or the definition is gone).
   */
  update(
    tenantId: string,
    id: string,
    fromVersion: number,
    changes: DefinitionChanges,
    audit: DefinitionAudit,
  ): Promise<FieldDefinition | undefined>;
  /** Soft delete under the same version condition; whether it happened. */
  softDelete(tenantId: string, id: string, fromVersion: number, audit: DefinitionAudit): Promise<boolean>;
}

/** Typed expression indexes of the entity tables, for definitions marked `indexed`. */
export interface ExpressionIndexPort {
  ensureFor(def: Pick<FieldDefinition, "entityType" | "fieldKey" | "fieldType" | "indexed">): Promise<void>;
}

/** What the custom field use cases need; wired in src/main. */
export interface CustomFieldsDeps {
  store: FieldDefinitionStorePort;
  cache: DefinitionCache;
  indexes: ExpressionIndexPort;
  now(): Date;
  newId(): string;
  /** Told about failures that do not fail the request (a late cache invalidation, an index build). */
  warn(message: string, error: unknown): void;
}

/** The definitions the values and filters of an entity type are checked against, through the cache. */
export function cachedDefinitions(deps: CustomFieldsDeps, tenantId: string, entityType: string): Promise<FieldDefinition[]> {
  return deps.cache.get(tenantId, entityType, () => deps.store.listLive(tenantId, entityType));
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
