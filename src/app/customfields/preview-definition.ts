import type { Actor } from "../../domain/actor.js";
import { AppError, type ErrorReason } from "../../domain/errors.js";
import { checkedNewDefinition, type CreateDefinitionInput } from "./create-definition.js";
import type { CustomFieldsDeps } from "./deps.js";
import { resolveAgainst, type ValuesInput } from "./resolve-values.js";

export interface PreviewInput {
  /** The draft as a create takes it; a draft whose key is stored is an edit of that definition. */
  draft: CreateDefinitionInput;
  sample: Omit<ValuesInput, "entityType">;
}

export interface PreviewViolation {
  field: string;
  description: string;
  reason: ErrorReason;
}

export interface Preview {
  /** What a create of the sample would store; empty when it would be refused. */
  customFields: Record<string, unknown>;
  /** Why a create of the sample would be refused. */
  violations: PreviewViolation[];
}

/** Refusals of the sample's values (answered as the preview's result), not of the draft. */
const SAMPLE_REFUSALS = new Set<ErrorReason>(["CUSTOM_FIELD_VALIDATION_FAILED", "FORMULA_LIMIT_EXCEEDED"]);

/**
 * The sample resolved against the stored definitions with the draft in place of the one with its
 * key: the draft is checked exactly as a save checks it (create's check against the other stored
 * definitions, so a cycle or a broken rule is the same error a save gives), then the sample goes
 * through the create path's resolution. Nothing is written and the cache is not touched. The
 * indexed-field cap, which a save checks inside its transaction, is not part of a preview.
 */
export async function previewDefinition(deps: CustomFieldsDeps, actor: Actor, input: PreviewInput): Promise<Preview> {
  const { draft, sample } = input;
  // The database, as a save reads it: the preview must answer what a save would.
  const stored = await deps.store.listLive(actor.tenantId, draft.entityType);
  const others = stored.filter((def) => def.fieldKey !== draft.fieldKey);
  const def = checkedNewDefinition(deps, actor, draft, others);
  try {
    const customFields = await resolveAgainst(deps, actor, [...others, def], { ...sample, entityType: draft.entityType });
    return { customFields, violations: [] };
  } catch (error) {
    if (!(error instanceof AppError) || !SAMPLE_REFUSALS.has(error.reason)) throw error;
    const reason = error.reason;
    return { customFields: {}, violations: error.violations.map((v) => ({ field: v.field, description: v.description, reason })) };
  }
}
