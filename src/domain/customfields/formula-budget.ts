/**
 * What one resolve may spend on formulas. Text concatenation with `+` and computed fields reading
 * each other multiply text: 16 KB of input once became a 201 MB value. So every text a formula
 * produces is capped, and so is the work of all computed fields of one resolve together (every
 * node evaluated is a step, and producing text costs a step per 64 characters, which also bounds
 * the text produced in total). Exceeding either is FORMULA_LIMIT_EXCEEDED, not a null value: the
 * tenant's formulas and the caller's input together ask for more than the service gives.
 */
import { AppError } from "../errors.js";

export interface FormulaLimits {
  /** Characters of any text a formula produces (concatenation, case change, string()). */
  maxTextLength: number;
  /** Steps of all computed fields of one resolve, every pass included. */
  maxSteps: number;
}

export const DEFAULT_FORMULA_LIMITS: FormulaLimits = { maxTextLength: 10_000, maxSteps: 100_000 };

/** Characters of produced text that cost one step. */
const CHARACTERS_PER_STEP = 64;

export class FormulaBudget {
  private steps = 0;

  constructor(readonly limits: FormulaLimits = DEFAULT_FORMULA_LIMITS) {}

  /** One node evaluated. */
  step(): void {
    if (++this.steps > this.limits.maxSteps) {
      throw limitExceeded(`formulas took more than ${this.limits.maxSteps} evaluation steps`, "maxSteps");
    }
  }

  /** Called before producing `length` characters of text, so an oversized text is never built. */
  text(length: number): void {
    if (length > this.limits.maxTextLength) {
      throw limitExceeded(`a formula would produce text of ${length} characters; at most ${this.limits.maxTextLength} are allowed`, "maxTextLength");
    }
    const cost = Math.floor(length / CHARACTERS_PER_STEP);
    for (let i = 0; i < cost; i++) this.step();
  }
}

export function isFormulaLimitError(error: unknown): error is AppError {
  return error instanceof AppError && error.reason === "FORMULA_LIMIT_EXCEEDED";
}

function limitExceeded(message: string, limit: string): AppError {
  return new AppError("FORMULA_LIMIT_EXCEEDED", message, { metadata: { limit } });
}
