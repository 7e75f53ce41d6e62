/**
 * The maxima a field's protovalidate rules declare, as JSON Schema keywords, so that the OpenAPI
 * document shows the same bounds the validation interceptor enforces. Only exact equivalents are
 * shown: max_bytes and the CEL `*.bounds` rules of Struct and Value have none in JSON Schema.
 */
import { getOption, isFieldSet, type DescField, type JsonObject } from "@bufbuild/protobuf";
import { field as fieldRulesOption, StringRulesSchema, type FieldRules } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";

/** `maxLength` of a string's rules, when they set max_len. */
function stringBounds(rules: FieldRules | undefined): JsonObject {
  if (rules?.type.case !== "string" || !isFieldSet(rules.type.value, StringRulesSchema.field.maxLen)) return {};
  return { maxLength: Number(rules.type.value.maxLen) };
}

/** Bounds of a scalar field, or of a list's or a map's scalar elements. */
export function scalarBounds(field: DescField): JsonObject {
  return stringBounds(getOption(field, fieldRulesOption));
}

/** `maxItems` and the items' bounds of a repeated field. */
export function listBounds(field: DescField): { list: JsonObject; items: JsonObject } {
  const rules = getOption(field, fieldRulesOption);
  if (rules.type.case !== "repeated") return { list: {}, items: {} };
  const { maxItems, items } = rules.type.value;
  return { list: maxItems > 0n ? { maxItems: Number(maxItems) } : {}, items: stringBounds(items) };
}

/** `maxProperties`, key and value bounds of a map field. */
export function mapBounds(field: DescField): { map: JsonObject; values: JsonObject } {
  const rules = getOption(field, fieldRulesOption);
  if (rules.type.case !== "map") return { map: {}, values: {} };
  const { maxPairs, keys, values } = rules.type.value;
  const names = stringBounds(keys);
  const map: JsonObject = maxPairs > 0n ? { maxProperties: Number(maxPairs) } : {};
  if (Object.keys(names).length > 0) map.propertyNames = names;
  return { map, values: stringBounds(values) };
}
