/**
 * STORAGE_CLASS_MAX_FILE_SIZE_BYTES: class maxima other than the specification's table, e.g.
 * `GENERAL_DOCUMENT=209715200,IMPORT_FILE=104857600`. A deployment that stores bigger documents
 * raises its class here (and STORAGE_MAX_FILE_SIZE_BYTES, which bounds every class) without a
 * code change; a class not named keeps its table maximum.
 */
import { objectClassNames, type ObjectClassName } from "../domain/files/object-classes.js";
import { ConfigError } from "./config-error.js";
import type { Env } from "./env.js";
import { optional } from "./env-values.js";

export type ClassMaxSizes = Partial<Record<ObjectClassName, number>>;

const NAME = "STORAGE_CLASS_MAX_FILE_SIZE_BYTES";

export function parseClassMaxSizes(env: Env): ClassMaxSizes {
  const raw = optional(env, NAME);
  if (raw === undefined) return {};
  const sizes: ClassMaxSizes = {};
  for (const entry of raw.split(",").map((e) => e.trim()).filter(Boolean)) {
    const match = /^([A-Z_]+)=(\d+)$/.exec(entry);
    if (!match) throw new ConfigError(NAME, `expected CLASS=bytes[,CLASS=bytes...], got "${entry}"`);
    const [, name, digits] = match;
    if (!objectClassNames.includes(name as ObjectClassName)) throw new ConfigError(NAME, `unknown object class "${name}"; valid classes: ${objectClassNames.join(", ")}`);
    if (Object.hasOwn(sizes, name)) throw new ConfigError(NAME, `${name} is named twice`);
    const bytes = Number(digits);
    if (bytes < 1 || !Number.isSafeInteger(bytes)) throw new ConfigError(NAME, `${name}: must be a whole number of bytes of at least 1, got "${digits}"`);
    sizes[name as ObjectClassName] = bytes;
  }
  return sizes;
}
