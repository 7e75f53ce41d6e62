/**
 * The bounds on what one tenant's definitions and one caller's values may cost, set from
 * configuration (src/config/custom-field-limits.ts) and passed down to the rules that enforce them.
 */
import { DEFAULT_FORMULA_LIMITS, type FormulaLimits } from "./formula-budget.js";
import { DEFAULT_PATTERN_LIMITS, type PatternLimits } from "./pattern.js";

export interface CustomFieldLimits {
  patterns: PatternLimits;
  formulas: FormulaLimits;
}

export const DEFAULT_CUSTOM_FIELD_LIMITS: CustomFieldLimits = {
  patterns: DEFAULT_PATTERN_LIMITS,
  formulas: DEFAULT_FORMULA_LIMITS,
};
