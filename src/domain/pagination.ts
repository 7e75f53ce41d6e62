import { AppError } from "./errors.js";
import { isUuid } from "./ids.js";
import { isStorableTime } from "./storable-time.js";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** AIP-158 page sizes: default 50, at most 500. */
export function pageSizeOf(requested: number): number {
  if (!requested || requested <= 0) return DEFAULT_PAGE_SIZE;
  return Math.min(requested, MAX_PAGE_SIZE);
}

/** A keyset position: the time a row is ordered by, and its id where times are equal. */
export interface Cursor {
  at: Date;
  id: string;
}

export interface Page<T> {
  items: T[];
  nextPageToken: string;
}

export interface PageRequest {
  pageSize: number;
  pageToken: string;
  /** The query a token is bound to: the same filters must come back with it. */
  filterKey: string;
}

/**
 * One page of a keyset query. `read` is asked for one row more than the page holds: that row
 * only tells whether a next page exists, and the token points after the page's last row.
 */
export async function readPage<T>(
  request: PageRequest,
  read: (after: Cursor | undefined, limit: number) => Promise<T[]>,
  positionOf: (row: T) => Cursor,
  isId: (id: string) => boolean = isUuid,
): Promise<Page<T>> {
  const limit = pageSizeOf(request.pageSize);
  const after = decodePageToken(request.pageToken, request.filterKey, isId);
  const rows = await read(after, limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextPageToken = rows.length > limit && last ? encodePageToken(positionOf(last), request.filterKey) : "";
  return { items, nextPageToken };
}

/**
 * Opaque keyset tokens: the position (at, id) of the last row, bound to the filters of the
 * query that produced it, so a token cannot be replayed against another query.
 */
export function encodePageToken(cursor: Cursor, filterKey: string): string {
  const json = JSON.stringify({ c: cursor.at.toISOString(), i: cursor.id, f: filterKey });
  return btoa(json).replaceAll("+", "-").replaceAll("/", "_").replace(/={1,2}$/, "");
}


/** `isId`: what a row id of the paged list looks like (UUIDs, unless the list is keyed otherwise). */
export function decodePageToken(token: string, filterKey: string, isId: (id: string) => boolean = isUuid): Cursor | undefined {
  if (!token) return undefined;
  try {
    const json = JSON.parse(atob(token.replaceAll("-", "+").replaceAll("_", "/"))) as { c: string; i: string; f: string };
    const at = new Date(json.c);
    // Only what encodePageToken can have written: a row id (every paged table has UUID ids) and
    // a time PostgreSQL reads back.
    if (typeof json.i !== "string" || !isId(json.i) || !isStorableTime(at)) {
      throw new Error("bad cursor");
    }
    if (json.f !== filterKey) throw new Error("token of another query");
    return { at, id: json.i };
  } catch {
    throw new AppError("VALIDATION_FAILED", "pageToken is invalid or belongs to another query", {
      violations: [{ field: "pageToken", description: "invalid or belongs to another query" }],
    });
  }
}
