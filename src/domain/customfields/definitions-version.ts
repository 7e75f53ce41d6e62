/**
 * A strong validator of the definitions of one tenant and entity type, for cheap revalidation by
 * offline clients (SyncFieldDefinitions): it changes whenever a definition is created, updated,
 * deactivated or deleted, because every write gives its definition a new version, a create adds an
 * id and a delete removes one. It is a hash of the (id, version) pairs and their count, in id order,
 * so it does not depend on the order the store answers in. Pure (no node:crypto): 64-bit FNV-1a.
 */
import type { FieldDefinition } from "./definition.js";

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;

export function definitionsVersion(defs: readonly Pick<FieldDefinition, "id" | "version">[]): string {
  const pairs = defs.map((def) => `${def.id}:${def.version}`).sort();
  return `${pairs.length}-${fnv1a64(pairs.join(";")).toString(16).padStart(16, "0")}`;
}

function fnv1a64(text: string): bigint {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  }
  return hash;
}
