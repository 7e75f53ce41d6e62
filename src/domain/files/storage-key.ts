/** `tenants/{tenantId}/{ownerEntityType}/{ownerEntityId}/{objectId}` (the specification's layout). */
export function storageKeyFor(tenantId: string, ownerEntityType: string, ownerEntityId: string, objectId: string): string {
  return `tenants/${encodeURIComponent(tenantId)}/${ownerEntityType}/${ownerEntityId}/${objectId}`;
}
