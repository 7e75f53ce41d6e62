/**
 * Text-to-scalar conversions shared by value coercion, conditions, formulas and filters, so a
 * number, boolean or date is recognised the same way everywhere.
 */

/**
 * A finite number from decimal text, or undefined. Stricter than Number(): '', ' ', '0x10',
 * 'Infinity' and '1_000' are not numbers here.
 */
export function parseNumberText(text: string): number | undefined {
  const trimmed = text.trim();
  if (!isDecimalText(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The language of /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/: a sign, digits around at most one
 * dot (at least one digit), an exponent. Scanned by hand, each character read once: that regular
 * expression backtracked quadratically on a long run of digits with a bad tail (80,000 digits and
 * an "x" held the event loop for seven seconds).
 */
function isDecimalText(text: string): boolean {
  let at = text[0] === "+" || text[0] === "-" ? 1 : 0;
  const integerEnd = skipDigits(text, at);
  let digits = integerEnd - at;
  at = integerEnd;
  if (text[at] === ".") {
    const fractionEnd = skipDigits(text, at + 1);
    digits += fractionEnd - (at + 1);
    at = fractionEnd;
  }
  if (digits === 0) return false;
  if (text[at] === "e" || text[at] === "E") {
    at += text[at + 1] === "+" || text[at + 1] === "-" ? 2 : 1;
    const exponentEnd = skipDigits(text, at);
    if (exponentEnd === at) return false;
    at = exponentEnd;
  }
  return at === text.length;
}

/** The index of the first character at or after `from` that is not an ASCII digit (what \d matches). */
function skipDigits(text: string, from: number): number {
  let at = from;
  while (at < text.length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++;
  return at;
}

/** Only the exact strings 'true' and 'false'. */
export function parseBooleanText(text: string): boolean | undefined {
  if (text === "true") return true;
  if (text === "false") return false;
  return undefined;
}

export interface ParsedDate {
  /** A date-only input stays a calendar day; anything with a time is an instant. */
  kind: "date" | "datetime";
  /** Stored form: 'YYYY-MM-DD' for a day, toISOString() (UTC, milliseconds) for an instant. */
  normalized: string;
  /** Milliseconds since the epoch; a day counts from its UTC midnight. */
  epochMs: number;
  /** The UTC calendar day, 'YYYY-MM-DD', used against minDate and maxDate. */
  day: string;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses 'YYYY-MM-DD' or ISO 8601 'YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM]'. A time without an
 * offset is read as UTC (the spec: dates are parsed as UTC). Impossible calendar values
 * (2023-02-30, 25:00) are refused instead of rolled over as Date.parse would.
 */
export function parseDateText(text: string): ParsedDate | undefined {
  const day = DATE_ONLY.exec(text);
  if (day) {
    const epochMs = utcEpoch(+day[1], +day[2], +day[3], 0, 0, 0, 0);
    if (epochMs === undefined) return undefined;
    return { kind: "date", normalized: text, epochMs, day: text };
  }
  const full = DATE_TIME.exec(text);
  if (!full) return undefined;
  const [, y, mo, d, h, mi, s = "0", frac = "0", zone = "Z"] = full;
  const ms = Math.floor(Number(`0.${frac}`) * 1000);
  const local = utcEpoch(+y, +mo, +d, +h, +mi, +s, ms);
  const offset = zoneOffsetMinutes(zone);
  if (local === undefined || offset === undefined) return undefined;
  const instant = new Date(local - offset * 60_000);
  if (Number.isNaN(instant.getTime())) return undefined;
  const normalized = instant.toISOString();
  return { kind: "datetime", normalized, epochMs: instant.getTime(), day: normalized.slice(0, 10) };
}

/** A Date (e.g. the injected timestamp) or a date string as an instant, else undefined. */
export function toEpochMs(value: unknown): number | undefined {
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) ? undefined : ms;
  }
  if (typeof value === "string") return parseDateText(value)?.epochMs;
  return undefined;
}

/** 'YYYY-MM-DD' of an instant in UTC. */
export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

function utcEpoch(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return date.getTime();
}

function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone === "Z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4));
  if (hours > 23 || minutes > 59) return undefined;
  const sign = zone.startsWith("-") ? -1 : 1;
  return sign * (hours * 60 + minutes);
}
