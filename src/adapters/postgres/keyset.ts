import type { Cursor } from "../../domain/pagination.js";

export type KeysetOrder = "asc" | "desc";

/**
 * The rows past `after` in the order (column, id): `(column, id) < (at, id)` for a descending
 * order, `>` for an ascending one, as a condition to spread into a `where`. The id breaks ties, so
 * rows sharing a time are neither skipped nor repeated. Empty on the first page.
 */
export function keysetAfter(column: string, order: KeysetOrder, after: Cursor | undefined): Record<string, unknown> {
  if (!after) return {};
  const past = order === "desc" ? "$lt" : "$gt";
  return { $or: [{ [column]: { [past]: after.at } }, { [column]: after.at, id: { [past]: after.id } }] };
}

/** The `orderBy` that `keysetAfter` pages through. */
export function keysetOrderBy(column: string, order: KeysetOrder): Record<string, KeysetOrder> {
  return { [column]: order, id: order };
}
