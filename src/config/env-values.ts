/**
 * The readers every section shares, so that a variable that is blank, not a number or not a URL
 * is refused with the same words whichever section reads it.
 */
import { ConfigError } from "./config-error.js";
import type { Env } from "./env.js";

export function required(env: Env, name: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === "") throw new ConfigError(name, "is required");
  return value.trim();
}

/** Blank counts as unset: an `.env` line `NAME=` means "the default". */
export function optional(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

export function integer(env: Env, name: string, fallback: number, min = 1): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || !Number.isSafeInteger(value)) throw new ConfigError(name, `must be at least ${min}`);
  return value;
}

/** A decimal number in (`above`, `atMost`]: `0.5`, `1`. */
export function fraction(env: Env, name: string, fallback: number, above: number, atMost: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,6}(\.\d{1,6})?$/.test(raw)) throw new ConfigError(name, `must be a decimal number such as 0.5, got "${raw}"`);
  const value = Number(raw);
  if (value <= above || value > atMost) throw new ConfigError(name, `must be above ${above} and at most ${atMost}, got "${raw}"`);
  return value;
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = optional(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

export function url(env: Env, name: string, value: string, protocols: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${value}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(" or ")}, got "${parsed.protocol}"`);
  }
  return value;
}
