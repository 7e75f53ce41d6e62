/**
 * Requests for the per-request budget test (request-budget.test.ts), in their JSON form and built
 * from the descriptor alone, so a new RPC or field gets them without an edit here: a plausible
 * request per method (so calls get past validation to the handler), then that request with one
 * field replaced by a worst case for its kind, and random requests from fast-check.
 */
import { ScalarType, type DescField, type DescMessage, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import fc from "fast-check";
import { DEFAULT_MAX_REQUEST_BODY_BYTES } from "../../../src/config/http-limits.js";
import { WEBHOOK_EVENT_TYPES } from "../../../src/domain/webhooks/event-types.js";

/** The keys of the custom fields the test defines (for Customer and Product), by type. */
export const FIELD_KEYS = { number: "score", string: "code", date: "since", select: "tier", json: "meta", boolean: "vip", computed: "twice" } as const;
/** The key of the NUMBER draft that previews send. */
export const DRAFT_KEY = "draftnum";

/** Ids of rows the test created first, so reads and writes find something. */
export interface Seeded {
  customerId: string;
  productId: string;
  definitionId: string;
  endpointId: string;
  objectId: string;
}

/** Just under the API's request body limit, so the call is read rather than refused at the door. */
export const NEAR_BODY_LIMIT = DEFAULT_MAX_REQUEST_BODY_BYTES - 8 * 1024;

/** How many items of about `bytes` encoded bytes each fit in a body just under the limit. */
const fitting = (bytes: number) => Math.floor(NEAR_BODY_LIMIT / bytes);

/** The measurement: 80,000 digits and a bad tail held the event loop for seven seconds. */
export const LONG_NUMBER = `${"1".repeat(80_000)}x`;

/** Worst cases for a string field, smallest first: a regression fails on the first, not after the biggest. */
export const WORST_STRINGS: readonly string[] = [
  LONG_NUMBER,
  `-.${"1".repeat(80_000)}e+`,
  `${"1".repeat(NEAR_BODY_LIMIT)}x`,
  "é".repeat(NEAR_BODY_LIMIT / 2 - 100),
  `${"(".repeat(NEAR_BODY_LIMIT / 2 - 8)}1${")".repeat(NEAR_BODY_LIMIT / 2 - 8)}`,
  `${"1+".repeat(NEAR_BODY_LIMIT / 2 - 8)}1`,
  `${"score".repeat(fitting(5) - 8)}__gt`,
  `${"9".repeat(400)}-01-01T00:00:00${".0".repeat(NEAR_BODY_LIMIT / 2 - 400)}`,
  " ".repeat(NEAR_BODY_LIMIT),
];

/** {"a":{"a":...}} and [[...]]: nesting as deep as the body allows (sent as text over REST). */
export function deepJsonText(depth: number): string[] {
  return [`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`, `${"[".repeat(depth)}1${"]".repeat(depth)}`];
}

/** A nested JSON value for the Connect client, which encodes it itself (deeper ones go as text over REST). */
function deepValue(depth: number): JsonValue {
  let value: JsonValue = LONG_NUMBER;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Worst cases for a google.protobuf.Struct of custom field values or a context, each within the body limit. */
export function worstStructs(): JsonObject[] {
  const keys = [...Object.values(FIELD_KEYS), DRAFT_KEY];
  const each = (value: JsonValue) => Object.fromEntries(keys.map((k) => [k, value]));
  return [
    each(LONG_NUMBER),
    { [DRAFT_KEY]: LONG_NUMBER },
    { [FIELD_KEYS.number]: `${"1".repeat(NEAR_BODY_LIMIT)}x` },
    { [FIELD_KEYS.date]: `${"1".repeat(NEAR_BODY_LIMIT)}x` },
    { [FIELD_KEYS.string]: "é".repeat(NEAR_BODY_LIMIT / 2 - 100) },
    // protobuf-es encodes and decodes a Value at most 100 levels deep: the deepest a client can send.
    { [FIELD_KEYS.json]: deepValue(95) },
    each(deepValue(60)),
    { [FIELD_KEYS.json]: Array.from({ length: fitting(18) }, (_, i) => i) },
    { [FIELD_KEYS.select]: Array.from({ length: fitting(21) }, () => "gold") },
    Object.fromEntries(Array.from({ length: fitting(21) }, (_, i) => [`k${i}`, 1])),
  ];
}

/** Worst cases for a map<string, string> of list filters (`fieldKey__op=value`). */
export function worstFilters(): JsonObject[] {
  const ops = ["eq", "gt", "gte", "lt", "lte", "in", "contains", "between"];
  const keys = [...Object.values(FIELD_KEYS), "name", "email"];
  return [
    Object.fromEntries(keys.flatMap((k) => ops.map((op) => [`${k}__${op}`, LONG_NUMBER]))),
    { [`${FIELD_KEYS.number}__in`]: `${"1,".repeat(NEAR_BODY_LIMIT / 2 - 8)}x` },
    { [`${FIELD_KEYS.date}__between`]: `${"1".repeat(NEAR_BODY_LIMIT / 2 - 8)},${"2".repeat(NEAR_BODY_LIMIT / 2 - 8)}x` },
    { [`${FIELD_KEYS.string}__contains`]: "%_".repeat(NEAR_BODY_LIMIT / 2 - 8) },
    Object.fromEntries(Array.from({ length: fitting(34) }, (_, i) => [`k${i}__gt`, "1"])),
    { [`${"a".repeat(NEAR_BODY_LIMIT)}__gt`]: "1" },
  ];
}

/** A plausible value for a field, by its name first, then by its kind. */
export function plausible(field: DescField, seeded: Seeded, owner: DescMessage): JsonValue | undefined {
  const byName = plausibleByName(field.jsonName, seeded, owner);
  if (byName !== undefined) return byName;
  switch (field.fieldKind) {
    case "scalar":
      return plausibleScalar(field.scalar);
    case "enum":
      return field.enum.values.find((v) => !v.name.endsWith("_UNSPECIFIED"))?.name;
    case "message":
      return field.message.typeName === "google.protobuf.Struct" ? {} : undefined;
    default:
      return undefined;
  }
}

function plausibleByName(name: string, seeded: Seeded, owner: DescMessage): JsonValue | undefined {
  const service = owner.typeName.split(".")[0];
  const ids: Record<string, string> = { customers: seeded.customerId, products: seeded.productId, filestorage: seeded.endpointId, customfields: seeded.definitionId };
  const table: Record<string, JsonValue> = {
    id: ids[service!] ?? seeded.definitionId,
    objectId: seeded.objectId,
    entityType: "Customer",
    ownerEntityType: "Customer",
    ownerEntityId: seeded.customerId,
    fieldKey: DRAFT_KEY,
    fieldLabel: "Draft number",
    fieldType: "NUMBER",
    expectedVersion: 1,
    pageSize: 10,
    url: "https://hooks.example.com/budget",
    eventTypes: [WEBHOOK_EVENT_TYPES[0]!],
    email: "ada@example.com",
    name: "Ada",
    sku: "SKU-1",
    priceCents: "100",
    contentType: "application/pdf",
    originalFilename: "report.pdf",
    fileSize: "1024",
    customFields: { [FIELD_KEYS.number]: 5 },
    context: {},
    query: { [`${FIELD_KEYS.number}__gt`]: "1" },
    filters: { [`${FIELD_KEYS.number}__gt`]: "1" },
    checksum: "d41d8cd98f00b204e9800998ecf8427e",
    disposition: "inline",
    result: "SUCCESS",
    contentMd5: "",
    contentSha256: "",
    parts: [{ partNumber: 1, contentLength: "1024" }],
    slug: "acme",
    companyName: "Acme",
  };
  return table[name];
}

function plausibleScalar(scalar: ScalarType): JsonValue {
  switch (scalar) {
    case ScalarType.STRING:
      return "x";
    case ScalarType.BOOL:
      return false;
    case ScalarType.BYTES:
      return "";
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return "1";
    default:
      return 1;
  }
}

/** The plausible request of a method: every field with a plausible value (nested messages too). */
export function plausibleRequest(schema: DescMessage, seeded: Seeded, depth = 0): JsonObject {
  const json: JsonObject = {};
  for (const field of schema.fields) {
    if (field.oneof && json[field.oneof.fields[0]!.jsonName] !== undefined) continue;
    if (field.jsonName === "updateMask") continue;
    let value = plausible(field, seeded, schema);
    if (value === undefined && field.fieldKind === "message" && depth < 2 && !field.message.typeName.startsWith("google.")) {
      value = plausibleRequest(field.message, seeded, depth + 1);
    }
    if (value !== undefined) json[field.jsonName] = value;
  }
  return json;
}

/** A worst case for a field, replacing its plausible value, with where it goes in the request. */
export interface Variation {
  label: string;
  request: JsonObject;
}

/** The plausible request with one field at a time replaced by each worst case for its kind. */
export function worstCaseRequests(schema: DescMessage, seeded: Seeded): Variation[] {
  const base = plausibleRequest(schema, seeded);
  const out: Variation[] = [{ label: "plausible", request: base }];
  const visit = (message: DescMessage, path: string[], rivalsByLevel: string[][]) => {
    for (const field of message.fields) {
      const at = [...path, field.jsonName];
      // A oneof holds one member: the worst value replaces whichever member the plausible request set.
      const rivals = [...rivalsByLevel, field.oneof ? field.oneof.fields.filter((f) => f !== field).map((f) => f.jsonName) : []];
      for (const [label, value] of worstValues(field)) out.push({ label: `${at.join(".")} = ${label}`, request: replaced(base, at, value, rivals) });
      if (field.fieldKind === "message" && path.length < 1 && !field.message.typeName.startsWith("google.")) visit(field.message, at, rivals);
    }
  };
  visit(schema, [], []);
  return out;
}

function worstValues(field: DescField): [string, JsonValue][] {
  const short = (v: string) => (v.length > 24 ? `${JSON.stringify(v.slice(0, 12))}... (${v.length} chars)` : JSON.stringify(v));
  if (field.fieldKind === "scalar" && field.scalar === ScalarType.STRING) return WORST_STRINGS.map((s) => [short(s), s]);
  if (field.fieldKind === "list" && field.listKind === "scalar" && field.scalar === ScalarType.STRING) {
    return [
      [`${fitting(34)} items`, Array.from({ length: fitting(34) }, (_, i) => `${WEBHOOK_EVENT_TYPES[i % WEBHOOK_EVENT_TYPES.length]}`)],
      ["a long number item", [LONG_NUMBER]],
    ];
  }
  if (field.fieldKind === "list" && field.listKind === "message") return [[`${fitting(50)} empty items`, Array.from({ length: fitting(50) }, () => ({}))]];
  if (field.fieldKind === "map") return worstFilters().map((m, i) => [`filters #${i}`, m]);
  if (field.fieldKind === "message" && field.message.typeName === "google.protobuf.Struct") return worstStructs().map((s, i) => [`struct #${i}`, s]);
  if (field.fieldKind === "message" && field.message.typeName === "google.protobuf.FieldMask") {
    return [[`a ${fitting(20)}-path mask`, Array.from({ length: fitting(20) }, (_, i) => `p${i}`).join(",")]];
  }
  if (field.fieldKind === "scalar" && (field.scalar === ScalarType.INT32 || field.scalar === ScalarType.INT64)) return [["max", field.scalar === ScalarType.INT32 ? 2_147_483_647 : "9223372036854775807"]];
  return [];
}

function replaced(base: JsonObject, path: string[], value: JsonValue, rivals: string[][]): JsonObject {
  const copy: JsonObject = { ...base };
  for (const rival of rivals[0] ?? []) delete copy[rival];
  if (path.length === 1) {
    copy[path[0]!] = value;
    return copy;
  }
  const inner = base[path[0]!];
  copy[path[0]!] = replaced(inner !== null && typeof inner === "object" && !Array.isArray(inner) ? inner : {}, path.slice(1), value, rivals.slice(1));
  return copy;
}

/** Random requests: the plausible one with fields swapped for fast-check values of the same JSON kind. */
export function randomRequest(schema: DescMessage, seeded: Seeded): fc.Arbitrary<JsonObject> {
  const base = plausibleRequest(schema, seeded);
  const text = fc.oneof(fc.string({ maxLength: 200 }), fc.stringMatching(/^[+-]?\d{1,400}(?:\.\d{0,400})?(?:e[+-]?\d{1,3})?x?$/), fc.constantFrom(...Object.values(FIELD_KEYS)));
  // One member of a oneof at most: the plausible request's.
  const entries = schema.fields.filter((field) => !field.oneof || base[field.jsonName] !== undefined).map((field) => {
    const arbitrary = randomValue(field, text);
    return [field.jsonName, arbitrary] as const;
  });
  return fc.record(Object.fromEntries(entries.filter(([, a]) => a !== undefined)) as Record<string, fc.Arbitrary<JsonValue>>, { requiredKeys: [] }).map((overrides) => ({ ...base, ...overrides }) as JsonObject);
}

function randomValue(field: DescField, text: fc.Arbitrary<string>): fc.Arbitrary<JsonValue> | undefined {
  if (field.fieldKind === "scalar" && field.scalar === ScalarType.STRING) return text;
  if (field.fieldKind === "list" && field.listKind === "scalar" && field.scalar === ScalarType.STRING) return fc.array(text, { maxLength: 50 });
  if (field.fieldKind === "map") return fc.dictionary(fc.tuple(fc.constantFrom(...Object.values(FIELD_KEYS)), fc.constantFrom("eq", "gt", "in", "between", "contains")).map(([k, op]) => `${k}__${op}`), text, { maxKeys: 8 });
  if (field.fieldKind === "message" && field.message.typeName === "google.protobuf.Struct") {
    return fc.dictionary(fc.constantFrom(...Object.values(FIELD_KEYS), DRAFT_KEY), fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.jsonValue({ depthSize: "medium" }) as fc.Arbitrary<JsonValue>), { maxKeys: 8 });
  }
  return undefined;
}
