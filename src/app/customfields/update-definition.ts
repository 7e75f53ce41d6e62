import type { Actor } from "../../domain/actor.js";
import { AppError } from "../../domain/errors.js";
import { checkDefinition, checkImmutable, definitionError } from "../../domain/customfields/definition-rules.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";
import { changedOnly, diff, mergeViolations, parseChanges, type DefinitionFields } from "./definition-input.js";
import {
  findDefinitionOrFail,
  limitsOf,
  retryOnConcurrentChange,
  withInvalidation,
  type CustomFieldsDeps,
} from "./deps.js";
import { indexedFieldGuard } from "./indexed-field-guard.js";

export interface UpdateDefinitionInput {
  id: string;
  /** When given and not the stored version: VERSION_CONFLICT, nothing changed. */
  expectedVersion?: number;
  /** May be sent, but must equal the stored value (request-schema rule 4). */
  entityType?: string;
  fieldKey?: string;
  /**
   * The given fields only (own keys). An optional field given as undefined is cleared
   * (description, defaultValue, computedFormula).
   */
  fields: Partial<DefinitionFields>;
}

/**
 * Applies the given fields over the stored definition, checks the result as a whole (with the
 * sibling definitions, for formula cycles), and writes it at version + 1 with an audit row. The
 * write is conditional on the version that was read; without `expectedVersion` a concurrent change
 * is retried on the new state, with it the caller learns of the conflict.
 */
export async function updateDefinition(deps: CustomFieldsDeps, actor: Actor, input: UpdateDefinitionInput): Promise<FieldDefinition> {
  // An index the change asks for (or no longer needs) is the worker's (custom-field-index-builder.ts).
  return retryOnConcurrentChange(() => attempt(deps, actor, input));
}

async function attempt(deps: CustomFieldsDeps, actor: Actor, input: UpdateDefinitionInput): Promise<FieldDefinition | undefined> {
  const existing = await findDefinitionOrFail(deps, actor, input.id);
  if (input.expectedVersion !== undefined && input.expectedVersion !== existing.version) {
    throw versionConflict(input.id, existing.version, input.expectedVersion);
  }
  const { changes, violations: parseViolations } = parseChanges(input.fields);
  const next: FieldDefinition = { ...existing, ...changes };
  const siblings = (await deps.store.listLive(actor.tenantId, existing.entityType)).filter((d) => d.id !== existing.id);
  const violations = mergeViolations(
    [...checkImmutable(existing, input), ...parseViolations],
    checkDefinition(next, siblings, limitsOf(deps)),
  );
  if (violations.length > 0) throw definitionError(violations);

  const now = deps.now();
  const audit = {
    definitionId: existing.id,
    action: "UPDATED" as const,
    actor,
    oldVersion: existing.version,
    newVersion: existing.version + 1,
    changes: diff(existing, changes),
    at: now,
  };
  const written = await withInvalidation(deps, actor.tenantId, existing.entityType, () =>
    deps.store.update(actor.tenantId, existing.id, existing.version, changedOnly(existing, changes), audit, indexedFieldGuard(deps, existing, next)),
  );
  if (written || input.expectedVersion === undefined) return written;
  // The version moved between the read and the write, past what the caller expected.
  const current = await findDefinitionOrFail(deps, actor, input.id);
  throw versionConflict(input.id, current.version, input.expectedVersion);
}

function versionConflict(id: string, current: number, expected: number): AppError {
  return new AppError("VERSION_CONFLICT", `field definition ${id} is at version ${current}, not the expected ${expected}`, {
    metadata: { currentVersion: String(current), expectedVersion: String(expected) },
  });
}
