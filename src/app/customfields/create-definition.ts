import type { Actor } from "../../domain/actor.js";
import { checkDefinition, definitionError } from "../../domain/customfields/definition-rules.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";
import { type DefinitionFields, mergeViolations, parseChanges } from "./definition-input.js";
import { limitsOf, withInvalidation, type CustomFieldsDeps } from "./deps.js";
import { indexedFieldGuard } from "./indexed-field-guard.js";
import type { DefinitionCountGuard } from "./port.js";
import { DEFAULT_MAX_DEFINITIONS_PER_ENTITY_TYPE, definitionLimitError } from "../../domain/customfields/definition-quota.js";

export interface CreateDefinitionInput extends DefinitionFields {
  entityType: string;
  fieldKey: string;
}

/**
 * A new definition at version 1: every schema rule checked at once (formula cycles against the
 * entity type's stored definitions), then inserted with its audit row; a live definition with the
 * same key is FIELD_KEY_EXISTS.
 */
export async function createDefinition(deps: CustomFieldsDeps, actor: Actor, input: CreateDefinitionInput): Promise<FieldDefinition> {
  // Read from the database, not the cache: a check must see what is stored now.
  const siblings = await deps.store.listLive(actor.tenantId, input.entityType);
  const def = checkedNewDefinition(deps, actor, input, siblings);
  const now = def.createdAt;
  const audit = { definitionId: def.id, action: "CREATED" as const, actor, oldVersion: null, newVersion: 1, changes: { new: def }, at: now };
  // An indexed field's index is built later by the worker (custom-field-index-builder.ts).
  const guard = indexedFieldGuard(deps, undefined, def);
  await withInvalidation(deps, actor.tenantId, def.entityType, () => deps.store.insert(def, audit, guard, definitionCountGuard(deps, def.entityType)));
  return def;
}

/**
 * The definition `input` describes at version 1, checked against `siblings` (the other live
 * definitions of its entity type) with every violation thrown at once, as a create refuses it.
 * A preview checks its draft with this too.
 */
export function checkedNewDefinition(deps: CustomFieldsDeps, actor: Actor, input: CreateDefinitionInput, siblings: readonly FieldDefinition[]): FieldDefinition {
  const { entityType, fieldKey, ...fields } = input;
  const { changes, violations: parseViolations } = parseChanges(fields);
  const now = deps.now();
  const def: FieldDefinition = {
    id: deps.newId(),
    tenantId: actor.tenantId,
    entityType,
    fieldKey,
    ...fields,
    ...changes,
    fieldType: changes.fieldType ?? "STRING",
    defaultStrategy: changes.defaultStrategy ?? "STATIC",
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  dropUndefined(def);
  const violations = mergeViolations(parseViolations, checkDefinition(def, siblings, limitsOf(deps)));
  if (violations.length > 0) throw definitionError(violations);
  return def;
}

/** Counted in the insert's transaction, under a lock of the tenant's entity type. */
function definitionCountGuard(deps: CustomFieldsDeps, entityType: string): DefinitionCountGuard {
  return (live) => {
    const refusal = definitionLimitError(live, deps.maxDefinitionsPerEntityType ?? DEFAULT_MAX_DEFINITIONS_PER_ENTITY_TYPE, entityType);
    if (refusal) throw refusal;
  };
}

/** Optional fields are absent, not undefined, in a stored definition. */
function dropUndefined(def: FieldDefinition): void {
  for (const key of ["description", "defaultValue", "computedFormula"] as const) {
    if (def[key] === undefined) delete def[key];
  }
}
