/**
 * The bounds a field's protovalidate rules declare, as JSON Schema keywords, so that the OpenAPI
 * document shows the same limits the validation interceptor enforces. Only exact equivalents are
 * shown: max_bytes, RE2 patterns, the email rule (protovalidate's is not JSON Schema's) and the
 * CEL `*.bounds` rules of Struct and Value have none in JSON Schema.
 */
import { getOption, isFieldSet, ScalarType, type DescField, type JsonObject } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import {
  field as fieldRulesOption,
  Ignore,
  StringRulesSchema,
  type FieldRules,
  type Int32Rules,
  type UInt32Rules,
} from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";

/** `minLength`, `maxLength` and `format: uuid` of a string's rules. */
function stringBounds(rules: FieldRules | undefined): JsonObject {
  if (rules?.type.case !== "string") return {};
  const string = rules.type.value;
  const bounds: JsonObject = {};
  if (string.minLen > 0n) bounds.minLength = Number(string.minLen);
  if (isFieldSet(string, StringRulesSchema.field.maxLen)) bounds.maxLength = Number(string.maxLen);
  if (string.wellKnown.case === "uuid" && string.wellKnown.value) bounds.format = "uuid";
  return bounds;
}

/** `minimum`/`maximum` (exclusive or not) of 32-bit integer rules; 64-bit integers are strings in JSON. */
function numberBounds(rules: FieldRules | undefined): JsonObject {
  if (rules?.type.case !== "int32" && rules?.type.case !== "uint32") return {};
  const { lessThan, greaterThan }: Int32Rules | UInt32Rules = rules.type.value;
  const bounds: JsonObject = {};
  if (greaterThan.case === "gte") bounds.minimum = greaterThan.value;
  if (greaterThan.case === "gt") bounds.exclusiveMinimum = greaterThan.value;
  if (lessThan.case === "lte") bounds.maximum = lessThan.value;
  if (lessThan.case === "lt") bounds.exclusiveMaximum = lessThan.value;
  return bounds;
}

/** Bounds of a scalar field, or of a list's or a map's scalar elements. */
function elementBounds(rules: FieldRules | undefined): JsonObject {
  return { ...stringBounds(rules), ...numberBounds(rules) };
}

/** Bounds of a scalar field. */
export function scalarBounds(field: DescField): JsonObject {
  return elementBounds(getOption(field, fieldRulesOption));
}

/** `minItems`, `maxItems` and the items' bounds of a repeated field. */
export function listBounds(field: DescField): { list: JsonObject; items: JsonObject } {
  const rules = getOption(field, fieldRulesOption);
  if (rules.type.case !== "repeated") return { list: {}, items: {} };
  const { minItems, maxItems, items } = rules.type.value;
  const list: JsonObject = {};
  if (minItems > 0n) list.minItems = Number(minItems);
  if (maxItems > 0n) list.maxItems = Number(maxItems);
  return { list, items: elementBounds(items) };
}

/** `maxProperties`, key and value bounds of a map field. */
export function mapBounds(field: DescField): { map: JsonObject; values: JsonObject } {
  const rules = getOption(field, fieldRulesOption);
  if (rules.type.case !== "map") return { map: {}, values: {} };
  const { maxPairs, keys, values } = rules.type.value;
  const names = stringBounds(keys);
  const map: JsonObject = maxPairs > 0n ? { maxProperties: Number(maxPairs) } : {};
  if (Object.keys(names).length > 0) map.propertyNames = names;
  return { map, values: elementBounds(values) };
}

/** Whether the rules refuse the value 0 (integers, enums). */
function refusesZero(rules: FieldRules): boolean {
  switch (rules.type.case) {
    case "enum":
      return rules.type.value.notIn.includes(0) || (rules.type.value.in.length > 0 && !rules.type.value.in.includes(0));
    case "int32":
    case "int64":
    case "uint32":
    case "uint64": {
      const { greaterThan, lessThan } = rules.type.value;
      // Only the sign matters here, so a 64-bit bound read as a double is exact enough.
      const low = Number(greaterThan.value);
      const high = Number(lessThan.value);
      return (
        (greaterThan.case === "gt" && low >= 0) ||
        (greaterThan.case === "gte" && low > 0) ||
        (lessThan.case === "lt" && high <= 0) ||
        (lessThan.case === "lte" && high < 0)
      );
    }
    default:
      return false;
  }
}

/** Whether the rules refuse the empty string: min_len, uuid, or a pattern "" does not match. */
function refusesEmpty(rules: FieldRules): boolean {
  if (rules.type.case !== "string") return false;
  const { minLen, wellKnown, pattern } = rules.type.value;
  if (minLen > 0n || wellKnown.case === "uuid") return true;
  if (pattern === "") return false;
  // A pattern's RE2 and ECMAScript readings agree on the empty string; one JS cannot compile says nothing.
  try {
    return !new RegExp(pattern, "u").test("");
  } catch {
    return false;
  }
}

/**
 * Whether a valid request must carry the field: protovalidate's `required`, or a field without
 * presence whose rules refuse the zero value it reads as when absent, unless the rules are told
 * to ignore a zero value.
 */
export function isRequiredField(field: DescField): boolean {
  const rules = getOption(field, fieldRulesOption);
  if (rules.required) return true;
  if (rules.ignore !== Ignore.UNSPECIFIED || field.presence !== FeatureSet_FieldPresence.IMPLICIT) return false;
  if (field.fieldKind === "enum") return refusesZero(rules);
  if (field.fieldKind !== "scalar") return false;
  return field.scalar === ScalarType.STRING ? refusesEmpty(rules) : refusesZero(rules);
}
