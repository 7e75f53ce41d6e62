/**
 * What create and update share: the definition fields a caller sends (enums in either accepted
 * casing), their parsing into the domain's form, and the collection of every violation at once.
 */
import { parseDefaultStrategy, parseFieldType } from "../../domain/customfields/casing.js";
import type { DefinitionViolation } from "../../domain/customfields/definition-rules.js";
import type { FieldDefinition, FieldValidation, Rule, UiConfig } from "../../domain/customfields/definition.js";
import type { DefinitionChanges } from "./port.js";

/** The writable fields as a caller sends them; `fieldType`/`defaultStrategy` kebab or UPPER_SNAKE. */
export interface DefinitionFields {
  fieldLabel: string;
  description?: string;
  fieldType: string;
  isRequired: boolean;
  displayOrder: number;
  /** Empty means static. */
  defaultStrategy: string;
  defaultValue?: string;
  computedFormula?: string;
  defaultRules: Rule[];
  validation: FieldValidation;
  validationRules: Rule[];
  uiConfig: UiConfig;
  isActive: boolean;
  indexed: boolean;
}

export interface ParsedChanges {
  changes: DefinitionChanges;
  violations: DefinitionViolation[];
}

/**
 * Parses the enums of the given fields (own keys only: an absent key is not given). An enum that
 * does not parse is reported and kept out of the changes; the caller reports the rest.
 */
export function parseChanges(given: Partial<DefinitionFields>): ParsedChanges {
  const changes: DefinitionChanges & Record<string, unknown> = {};
  const violations: DefinitionViolation[] = [];
  for (const [key, value] of Object.entries(given)) {
    if (key === "fieldType") {
      const parsed = parseFieldType(value);
      if (parsed.ok) changes.fieldType = parsed.value;
      else violations.push({ ...parsed.violation, reason: "VALIDATION_FAILED" });
    } else if (key === "defaultStrategy") {
      const parsed = parseDefaultStrategy(value === "" || value === undefined ? "STATIC" : value);
      if (parsed.ok) changes.defaultStrategy = parsed.value;
      else violations.push({ ...parsed.violation, reason: "VALIDATION_FAILED" });
    } else {
      changes[key] = value;
    }
  }
  return { changes, violations };
}

/** Parse violations first; a rule check on a field already reported adds nothing. */
export function mergeViolations(first: DefinitionViolation[], then: DefinitionViolation[]): DefinitionViolation[] {
  const fields = new Set(first.map((v) => v.field));
  return [...first, ...then.filter((v) => !fields.has(v.field))];
}

/** `{field: {old, new}}` for every given field whose value differs. */
export function diff(before: FieldDefinition, changes: DefinitionChanges): Record<string, { old: unknown; new: unknown }> {
  const out: Record<string, { old: unknown; new: unknown }> = {};
  for (const [key, value] of Object.entries(changes)) {
    const old = before[key as keyof DefinitionChanges];
    if (JSON.stringify(old ?? null) !== JSON.stringify(value ?? null)) out[key] = { old: old ?? null, new: value ?? null };
  }
  return out;
}

/** Only the fields that differ; written together with the new version. */
export function changedOnly(before: FieldDefinition, changes: DefinitionChanges): DefinitionChanges {
  const changed = diff(before, changes);
  return Object.fromEntries(Object.keys(changed).map((key) => [key, changes[key as keyof DefinitionChanges]]));
}
