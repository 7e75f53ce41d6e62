import { AppError } from "./errors.js";

/** AIP-158 page sizes: default 50, at most 500. */
export function pageSizeOf(requested: number): number {
  if (!requested || requested <= 0) return 50;
  return Math.min(requested, 500);
}

export interface Cursor {
  createdAt: Date;
  id: string;
}

/**
 * Opaque keyset tokens: the position (createdAt, id) of the last row, bound to the filters of the
 * query that produced it, so a token cannot be replayed against another query.
 */
export function encodePageToken(cursor: Cursor, filterKey: string): string {
  const json = JSON.stringify({ c: cursor.createdAt.toISOString(), i: cursor.id, f: filterKey });
  return btoa(json).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodePageToken(token: string, filterKey: string): Cursor | undefined {
  if (!token) return undefined;
  try {
    const json = JSON.parse(atob(token.replaceAll("-", "+").replaceAll("_", "/"))) as { c: string; i: string; f: string };
    const createdAt = new Date(json.c);
    // Only what encodePageToken can have written: a row id (every paged table has UUID ids) and
    // a time PostgreSQL reads back (toISOString writes years past 9999 as "+010000-...").
    const year = createdAt.getUTCFullYear();
    if (typeof json.i !== "string" || !UUID.test(json.i) || Number.isNaN(createdAt.getTime()) || year < 1 || year > 9999) {
      throw new Error("bad cursor");
    }
    if (json.f !== filterKey) throw new Error("token of another query");
    return { createdAt, id: json.i };
  } catch {
    throw new AppError("VALIDATION_FAILED", "pageToken is invalid or belongs to another query", {
      violations: [{ field: "pageToken", description: "invalid or belongs to another query" }],
    });
  }
}
