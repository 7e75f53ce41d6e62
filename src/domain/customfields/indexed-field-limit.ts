import { AppError } from "../errors.js";

/**
 * Every indexed field costs an expression index on the entity table that all tenants share (a
 * build, disk, and a slower write for every row), so a tenant may mark only so many fields
 * `indexed`. Filters on the others still work, only without the index.
 *
 * `otherIndexed`: the tenant's live indexed definitions besides the one being written, counted
 * while no other write of the tenant can change that number.
 */
export function indexedFieldLimitError(otherIndexed: number, limit: number, fieldKey: string): AppError | undefined {
  if (otherIndexed < limit) return undefined;
  return new AppError("INDEXED_FIELD_LIMIT_REACHED", `a tenant may index at most ${limit} custom fields; "${fieldKey}" would be one more`, {
    violations: [{ field: "indexed", description: `at most ${limit} indexed fields per tenant; unmark or delete one first` }],
    metadata: { limit: String(limit), indexed: String(otherIndexed) },
  });
}

/** Only a write that turns `indexed` on can pass the limit; keeping or removing it never does. */
export function addsIndexedField(before: { indexed: boolean } | undefined, after: { indexed: boolean }): boolean {
  return after.indexed && !(before?.indexed ?? false);
}
