import { fromJson, type DescField, type DescMessage, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import { AppError } from "../../domain/errors.js";
import type { RouteMatch } from "./http-routes.js";

/**
 * Builds the request message of a REST call the way google.api.http transcoding does: the body
 * (per the rule's `body`), then path variables, then query parameters for the remaining fields.
 * Two generic extensions, each keyed on a field name so that no route is special-cased:
 *  - a PATCH whose request has `update_mask` and whose body names none gets the mask of the
 *    body's keys (as grpc-gateway does), so absent keys are left unchanged;
 *  - query parameters that name no field land in a `map<string, string> filters` field when the
 *    request has one (the `fieldKey__op=value` filters of list calls); so does the OpenAPI
 *    deepObject form `filters[fieldKey__op]=value`, which openapi-fetch and openapi-generator send
 *    by default for the object parameter the document describes.
 */
export function buildRequest(match: RouteMatch, body: JsonValue | undefined, query: URLSearchParams): Message {
  const { route, pathParams } = match;
  const schema = route.method.input;
  const json: JsonObject = bodyJson(route.body, body);
  if (route.httpMethod === "PATCH" && schema.field.updateMask && json.updateMask === undefined) {
    json.updateMask = Object.keys(json).filter((k) => fieldByJsonKey(schema, k)).join(",");
  }
  for (const [name, value] of Object.entries(pathParams)) {
    const field = schema.fields.find((f) => f.name === name);
    if (field) json[field.jsonName] = value;
  }
  applyQuery(schema, json, query, new Set([...Object.keys(pathParams), ...(route.body === "*" ? schema.fields.map((f) => f.name) : [route.body])]));
  checkEnums(schema, json);
  try {
    return fromJson(schema, json, { ignoreUnknownFields: false });
  } catch (error) {
    throw new AppError("MALFORMED_REQUEST", describeJsonError(error), { cause: error });
  }
}

/** protobuf-es does not name the field of an unknown enum value; the API must. */
function checkEnums(schema: DescMessage, json: JsonObject): void {
  for (const field of schema.fields) {
    const value = json[field.jsonName] ?? json[field.name];
    if (field.fieldKind !== "enum" || typeof value !== "string") continue;
    const known = field.enum.values.map((v) => v.name);
    if (!known.includes(value)) {
      const allowed = known.filter((n) => !n.endsWith("_UNSPECIFIED")).join(", ");
      throw new AppError("MALFORMED_REQUEST", `${field.jsonName}: unknown value "${value}"; expected one of ${allowed}`, {
        violations: [{ field: field.jsonName, description: `unknown value "${value}"` }],
      });
    }
  }
}

function bodyJson(bodyRule: string, body: JsonValue | undefined): JsonObject {
  if (bodyRule === "") return {};
  if (body === undefined) return {};
  if (bodyRule === "*") {
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      throw new AppError("MALFORMED_REQUEST", "the request body must be a JSON object");
    }
    return { ...body };
  }
  return { [bodyRule]: body };
}

function fieldByJsonKey(schema: DescMessage, key: string): DescField | undefined {
  return schema.fields.find((f) => f.jsonName === key || f.name === key);
}

function queryValue(field: DescField, raw: string): JsonValue {
  if (field.fieldKind === "scalar" && field.scalar === 8 /* BOOL */) {
    if (raw === "true") return true;
    if (raw === "false") return false;
    throw new AppError("MALFORMED_REQUEST", `query parameter ${field.jsonName} must be true or false, got "${raw}"`);
  }
  return raw;
}

function filtersField(schema: DescMessage): DescField | undefined {
  const field = schema.field.filters;
  return field?.fieldKind === "map" && field.mapKey === 9 /* STRING */ ? field : undefined;
}

/** Messages whose JSON form is a string, so a query parameter can carry them. */
const STRING_MESSAGES = new Set(["google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.FieldMask"]);

function isQueryLeaf(field: DescField): boolean {
  if (field.fieldKind === "message") return STRING_MESSAGES.has(field.message.typeName);
  return field.fieldKind !== "map";
}

/**
 * A dotted parameter (`filter.actor_id`, `filter.occurredAfter`) names a field of a nested
 * message, as grpc-gateway reads them: the object on the way is created in the JSON.
 */
function nestedTarget(schema: DescMessage, json: JsonObject, key: string): { field: DescField; into: JsonObject } | undefined {
  const path = key.split(".");
  let message = schema;
  let into = json;
  for (const segment of path.slice(0, -1)) {
    const field = fieldByJsonKey(message, segment);
    if (field?.fieldKind !== "message" || STRING_MESSAGES.has(field.message.typeName)) return undefined;
    const next = (into[field.jsonName] ??= {}) as JsonObject;
    message = field.message;
    into = next;
  }
  const field = fieldByJsonKey(message, path[path.length - 1]);
  return field && isQueryLeaf(field) ? { field, into } : undefined;
}

/** `filters[tier__eq]` (OpenAPI `style: deepObject`) names the filter `tier__eq`. */
function deepObjectFilter(schema: DescMessage, key: string): string | undefined {
  const target = filtersField(schema);
  const parts = /^(\w+)\[([^[\]]+)\]$/.exec(key);
  if (!target || !parts || (parts[1] !== target.jsonName && parts[1] !== target.name)) return undefined;
  return parts[2];
}

function applyQuery(schema: DescMessage, json: JsonObject, query: URLSearchParams, taken: Set<string>): void {
  const filters: Record<string, string> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    const filter = deepObjectFilter(schema, key);
    if (filter !== undefined) {
      filters[filter] = values[values.length - 1];
      continue;
    }
    const field = fieldByJsonKey(schema, key);
    if (field && !taken.has(field.name) && isQueryLeaf(field)) {
      json[field.jsonName] = field.fieldKind === "list" ? values : queryValue(field, values[values.length - 1]);
      continue;
    }
    const nested = key.includes(".") && !taken.has(key.split(".")[0]) ? nestedTarget(schema, json, key) : undefined;
    if (nested) {
      nested.into[nested.field.jsonName] = nested.field.fieldKind === "list" ? values : queryValue(nested.field, values[values.length - 1]);
      continue;
    }
    if (!field && filtersField(schema)) {
      filters[key] = values[values.length - 1];
      continue;
    }
    throw new AppError("MALFORMED_REQUEST", `unknown query parameter "${key}"`);
  }
  const target = filtersField(schema);
  if (target && Object.keys(filters).length > 0) json[target.jsonName] = filters;
}

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** protobuf-es names the field as `pkg.Message.field_name`; the API speaks lowerCamelCase JSON. */
function describeJsonError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const field = /cannot decode field [\w.]+\.(\w+) from JSON: (.*)$/s.exec(message);
  if (field) return `${camel(field[1])}: ${field[2]}`;
  return message.replace(/^cannot decode message [\w.]+ from JSON: /, "");
}
