/** The fields of an entry's canonical form, in the order the database writes them. */
export interface CanonicalEntry {
  tenantId: string;
  id: string;
  objectId: string;
  action: string;
  actorId: string;
  requestId: string | null;
  correlationId: string;
  result: string;
  occurredAt: string;
  objectClass: string | null;
  ownerType: string | null;
  ownerId: string | null;
  details: unknown;
}

export const CANONICAL_VERSION = "audit-entry/v1";

/** Reads a canonical text, or undefined when it is not one this version writes. */
export function parseCanonical(canonical: string): CanonicalEntry | undefined {
  let fields: unknown;
  try {
    fields = JSON.parse(canonical);
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 14 || fields[0] !== CANONICAL_VERSION) return undefined;
  const [, tenantId, id, objectId, action, actorId, requestId, correlationId, result, occurredAt, objectClass, ownerType, ownerId, details] = fields as unknown[];
  return {
    tenantId: String(tenantId),
    id: String(id),
    objectId: String(objectId),
    action: String(action),
    actorId: String(actorId),
    requestId: requestId === null ? null : String(requestId),
    correlationId: String(correlationId),
    result: String(result),
    occurredAt: String(occurredAt),
    objectClass: objectClass === null ? null : String(objectClass),
    ownerType: ownerType === null ? null : String(ownerType),
    ownerId: ownerId === null ? null : String(ownerId),
    details,
  };
}

/** An entry as a reader sees it in an export, each field in the export's own spelling. */
export interface ShownEntry {
  id: string;
  objectId: string;
  action: string;
  actorId: string;
  requestId: string;
  correlationId: string;
  result: string;
  occurredAt: Date;
  objectClass: string;
  ownerType: string;
  ownerId: string;
  details: unknown;
}

/**
 * The fields an export shows that its canonical form (what the hash covers) does not say: an
 * export edited in its readable fields but not in its canonical text would otherwise pass.
 * Empty strings and an unspecified class read as absent, as the contract writes them.
 */
export function fieldsDifferingFromCanonical(shown: ShownEntry, canonical: CanonicalEntry): string[] {
  const text = (value: string | null) => value ?? "";
  const pairs: [string, boolean][] = [
    ["id", shown.id === canonical.id],
    ["objectId", shown.objectId === canonical.objectId],
    ["action", shown.action === canonical.action],
    ["actorId", shown.actorId === canonical.actorId],
    ["requestId", shown.requestId === text(canonical.requestId)],
    ["correlationId", shown.correlationId === canonical.correlationId],
    ["result", shown.result === canonical.result],
    ["occurredAt", shown.occurredAt.getTime() === Date.parse(canonical.occurredAt)],
    ["objectClass", classText(shown.objectClass) === text(canonical.objectClass)],
    ["ownerType", shown.ownerType === text(canonical.ownerType)],
    ["ownerId", shown.ownerId === text(canonical.ownerId)],
    ["details", sameJson(shown.details ?? {}, canonical.details ?? {})],
  ];
  return pairs.filter(([, same]) => !same).map(([name]) => name);
}

function classText(value: string): string {
  return value === "OBJECT_CLASS_UNSPECIFIED" ? "" : value;
}

/** Deep equality of JSON values; numbers by value, so 1 and 1.0 are one number. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((value, index) => sameJson(value, other[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => key in right && sameJson(left[key], right[key]));
}
