/** One printed figure: what we measured, and what it is compared with in the same run. */
export interface Baseline {
  name: string;
  value: number;
  unit: string;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline: Baseline | null;
  /** value ÷ baseline.value; null without a baseline (or a zero one). */
  ratio: number | null;
  notes?: string;
  /** The bench group that measured it (set by bench/run.ts), so a partial run can replace all of its group's rows. */
  group?: string;
}

export function baseline(name: string, value: number, unit: string): Baseline {
  return { name, value: round(value), unit };
}

export function figure(name: string, value: number, unit: string, against: Baseline | null, notes?: string): Figure {
  const rounded = round(value);
  const ratio = against && against.value !== 0 ? round(value / against.value, 4) : null;
  return { name, value: rounded, unit, baseline: against, ratio, ...(notes ? { notes } : {}) };
}

/** Enough digits for any figure here without printing float noise into results.json. */
function round(value: number, significant = 4): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const digits = Math.max(0, significant - Math.floor(Math.log10(Math.abs(value))) - 1);
  return Number(value.toFixed(Math.min(digits, 6)));
}
