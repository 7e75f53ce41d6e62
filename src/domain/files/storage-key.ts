/**
 * Where an object's bytes live in the bucket: `tenants/{tenantId}/{ownerEntityType}/{ownerEntityId}/{objectId}`
 * (the specification's layout). The one place that knows it: keys are built and read back here.
 */

/** The prefix every object key starts with: what the sweep lists to find orphans. */
export const STORAGE_KEY_ROOT = "tenants/";

export function storageKeyFor(tenantId: string, ownerEntityType: string, ownerEntityId: string, objectId: string): string {
  return `${STORAGE_KEY_ROOT}${encodeURIComponent(tenantId)}/${ownerEntityType}/${ownerEntityId}/${objectId}`;
}

/** The tenant a key belongs to, undefined for a key outside the layout (not ours, or malformed). */
export function tenantOfStorageKey(key: string): string | undefined {
  if (!key.startsWith(STORAGE_KEY_ROOT)) return undefined;
  const end = key.indexOf("/", STORAGE_KEY_ROOT.length);
  if (end <= STORAGE_KEY_ROOT.length) return undefined;
  try {
    return decodeURIComponent(key.slice(STORAGE_KEY_ROOT.length, end));
  } catch {
    return undefined; // a stray "%" that no key we built holds
  }
}
