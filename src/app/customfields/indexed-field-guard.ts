import { addsIndexedField, indexedFieldLimitError } from "../../domain/customfields/indexed-field-limit.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";
import type { CustomFieldsDeps } from "./deps.js";
import type { IndexedFieldGuard } from "./port.js";

/**
 * The check a write that turns `indexed` on runs inside its transaction: counted there, under the
 * store's per-tenant lock, so that concurrent saves cannot all see room for one more. Writes that
 * add no indexed field need no guard (and no lock).
 */
export function indexedFieldGuard(
  deps: Pick<CustomFieldsDeps, "maxIndexedFields">,
  before: FieldDefinition | undefined,
  after: FieldDefinition,
): IndexedFieldGuard | undefined {
  if (!addsIndexedField(before, after)) return undefined;
  return (otherIndexed) => {
    const refusal = indexedFieldLimitError(otherIndexed, deps.maxIndexedFields, after.fieldKey);
    if (refusal) throw refusal;
  };
}
