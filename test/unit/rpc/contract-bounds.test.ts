/**
 * Every value a caller sends has a maximum in the contract: each string, bytes, repeated and map
 * field reachable from any RPC's request carries a protovalidate bound (a JSON-shaped well-known
 * type carries a CEL rule named `*.bounds`), so a new field without one fails here. Then, in
 * memory, an oversized value is INVALID_ARGUMENT naming the field, over a typed client and REST.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { getOption, isFieldSet, ScalarType, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import {
  field as fieldRulesOption,
  type FieldRules,
  BytesRulesSchema,
  MapRulesSchema,
  RepeatedRulesSchema,
  StringRulesSchema,
} from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { beforeEach, describe, expect, it } from "vitest";
import { AuditService } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import { CustomFieldsService, GetCacheStatsResponseSchema } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { CustomersService } from "@files-and-fields/client/gen/customers/v1/customers_service_pb.js";
import { MAX_TEXT_LENGTH_BY_TYPE, MAX_VALUE_LIST_ITEMS, MAX_VALUE_OBJECT_KEYS, MAX_VALUE_TEXT_LENGTH } from "../../../src/domain/customfields/value-size.js";
import { reasonOf, refusalOf, violationsOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

const GEN = path.resolve(import.meta.dirname, "../../../packages/client/gen");
/** Generated from third-party protos (.proto-deps), not from our contract. */
const THIRD_PARTY = new Set(["google", "grpc"]);

/** Every file descriptor generated from proto/: a new service file is walked without a change here. */
async function contractFiles(): Promise<DescFile[]> {
  const files: DescFile[] = [];
  for (const pkg of readdirSync(GEN).filter((dir) => !THIRD_PARTY.has(dir))) {
    for (const version of readdirSync(path.join(GEN, pkg))) {
      for (const name of readdirSync(path.join(GEN, pkg, version)).filter((f) => f.endsWith("_pb.ts"))) {
        const module = (await import(path.join(GEN, pkg, version, name))) as Record<string, unknown>;
        files.push(...Object.values(module).filter((value): value is DescFile => (value as DescFile | undefined)?.kind === "file"));
      }
    }
  }
  return files;
}

/** Well-known types of a fixed size: nothing to bound. */
const FIXED_SIZE = new Set(["google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.Empty"]);
/** Well-known types whose size protovalidate cannot bound by a standard rule: a CEL rule must. */
const JSON_SHAPED = new Set(["google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue", "google.protobuf.FieldMask"]);

function stringBounded(rules: FieldRules | undefined): boolean {
  if (rules?.type.case !== "string") return false;
  const r = rules.type.value;
  const fields = StringRulesSchema.field;
  // A fixed-length format or a closed set bounds it as well as max_len does.
  const fixedFormat = r.wellKnown.case === "uuid" || r.wellKnown.case === "tuuid" || r.wellKnown.case === "ulid";
  return [fields.maxLen, fields.maxBytes, fields.len, fields.lenBytes, fields.const].some((f) => isFieldSet(r, f)) || r.in.length > 0 || fixedFormat;
}

function bytesBounded(rules: FieldRules | undefined): boolean {
  if (rules?.type.case !== "bytes") return false;
  const r = rules.type.value;
  const fields = BytesRulesSchema.field;
  return [fields.maxLen, fields.len, fields.const].some((f) => isFieldSet(r, f)) || r.in.length > 0;
}

function celBounded(rules: FieldRules | undefined): boolean {
  return (rules?.cel ?? []).some((rule) => rule.id.endsWith(".bounds"));
}

type Element = { kind: "scalar"; scalar: ScalarType } | { kind: "enum" } | { kind: "message"; message: DescMessage };

/** Problems of one value (a field, a list item, a map key or value) under `rules`, at `at`. */
function elementProblems(element: Element, rules: FieldRules | undefined, at: string, seen: Set<string>): string[] {
  if (element.kind === "enum") return [];
  if (element.kind === "scalar") {
    if (element.scalar === ScalarType.STRING) return stringBounded(rules) ? [] : [`${at}: string without max_len`];
    if (element.scalar === ScalarType.BYTES) return bytesBounded(rules) ? [] : [`${at}: bytes without max_len`];
    return [];
  }
  const typeName = element.message.typeName;
  if (FIXED_SIZE.has(typeName)) return [];
  if (JSON_SHAPED.has(typeName)) return celBounded(rules) ? [] : [`${at}: ${typeName} without a *.bounds CEL rule`];
  if (typeName.startsWith("google.protobuf.")) return [`${at}: ${typeName} has no bound decided in this test`];
  return unboundedFields(element.message, seen);
}

/** Every string, bytes, repeated and map field reachable from `message` that has no maximum. */
function unboundedFields(message: DescMessage, seen = new Set<string>()): string[] {
  if (seen.has(message.typeName)) return [];
  seen.add(message.typeName);
  const problems: string[] = [];
  for (const field of message.fields) {
    const at = `${message.typeName}.${field.name}`;
    const rules = getOption(field, fieldRulesOption);
    switch (field.fieldKind) {
      case "scalar":
        problems.push(...elementProblems({ kind: "scalar", scalar: field.scalar }, rules, at, seen));
        break;
      case "enum":
        break;
      case "message":
        problems.push(...elementProblems({ kind: "message", message: field.message }, rules, at, seen));
        break;
      case "list": {
        const repeated = rules.type.case === "repeated" ? rules.type.value : undefined;
        if (!repeated || !isFieldSet(repeated, RepeatedRulesSchema.field.maxItems)) problems.push(`${at}: repeated without max_items`);
        const element: Element = field.listKind === "message" ? { kind: "message", message: field.message } : field.listKind === "enum" ? { kind: "enum" } : { kind: "scalar", scalar: field.scalar };
        problems.push(...elementProblems(element, repeated?.items, `${at}[]`, seen));
        break;
      }
      case "map": {
        const map = rules.type.case === "map" ? rules.type.value : undefined;
        if (!map || !isFieldSet(map, MapRulesSchema.field.maxPairs)) problems.push(`${at}: map without max_pairs`);
        problems.push(...elementProblems({ kind: "scalar", scalar: field.mapKey }, map?.keys, `${at}{key}`, seen));
        const value: Element = field.mapKind === "message" ? { kind: "message", message: field.message } : field.mapKind === "enum" ? { kind: "enum" } : { kind: "scalar", scalar: field.scalar };
        problems.push(...elementProblems(value, map?.values, `${at}{value}`, seen));
        break;
      }
    }
  }
  return problems;
}

describe("the contract bounds every caller-controlled value", () => {
  it("finds the services of every generated contract file", async () => {
    const services = (await contractFiles()).flatMap((file) => file.services.map((s) => s.typeName));
    expect(services).toEqual(
      expect.arrayContaining([
        "customfields.v1.CustomFieldsService",
        "customfields.v1.OrganizationService",
        "customers.v1.CustomersService",
        "products.v1.ProductsService",
        "filestorage.v1.FileStorageService",
        "filestorage.v1.AuditService",
        "filestorage.v1.WebhookService",
      ]),
    );
  });

  it("has a maximum on every string, bytes, repeated and map field of every request", async () => {
    const seen = new Set<string>();
    const problems = (await contractFiles()).flatMap((file) => file.services.flatMap((s) => s.methods.flatMap((m) => unboundedFields(m.input, seen))));
    expect(problems).toEqual([]);
  });

  it("would report a field without a bound (the walker itself, on a response message)", () => {
    expect(unboundedFields(GetCacheStatsResponseSchema)).toEqual(["customfields.v1.GetCacheStatsResponse.cached_entity_types: repeated without max_items", "customfields.v1.GetCacheStatsResponse.cached_entity_types[]: string without max_len"]);
  });
});

describe("an oversized value is INVALID_ARGUMENT naming the field", () => {
  let api: InMemoryApi;
  let token: string;
  beforeEach(async () => {
    api = inMemoryApi();
    token = await api.token("t1");
  });

  const invalid = (fields: string[]) => ({ code: "InvalidArgument", reason: "VALIDATION_FAILED", fields });

  it("refuses a custom field value past the global cap, and a filter value past the filter bound", async () => {
    const fields = api.client(CustomFieldsService, token);
    const long = "x".repeat(MAX_VALUE_TEXT_LENGTH + 1);
    expect(await refusalOf(fields.resolveValuesForCreate({ entityType: "Customer", customFields: { note: long } }))).toEqual(invalid(["customFields"]));
    const wide = Object.fromEntries(Array.from({ length: MAX_VALUE_OBJECT_KEYS + 1 }, (_, i) => [`k${i}`, i]));
    expect(await refusalOf(fields.resolveValuesForCreate({ entityType: "Customer", customFields: { data: wide } }))).toEqual(invalid(["customFields"]));
    expect(await refusalOf(fields.validateValuesForUpdate({ entityType: "Customer", context: { entity: long } }))).toEqual(invalid(["context"]));
    expect(await refusalOf(fields.parseFilters({ entityType: "Customer", query: { note: "x".repeat(1001) } }))).toEqual(invalid(['query["note"]']));
    expect(await refusalOf(fields.parseFilters({ entityType: "Customer", query: { ["k".repeat(129)]: "1" } }))).toEqual(invalid([`query["${"k".repeat(129)}"]`]));
  });

  it("refuses a preview draft with too many options or an oversized rule value, naming the draft's field", async () => {
    const fields = api.client(CustomFieldsService, token);
    const options = Array.from({ length: 501 }, (_, i) => ({ label: `o${i}`, value: `o${i}` }));
    const draft = { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "select" };
    expect(await refusalOf(fields.previewFieldDefinition({ entityType: "Customer", draft: { ...draft, uiConfig: { options } } }))).toEqual(invalid(["draft.uiConfig.options"]));
    // Over REST: a google.protobuf.Value is plain JSON there.
    const rule = { name: "r", when: { operator: "AND", conditions: [{ field: "entity.name", operator: "in", value: Array.from({ length: MAX_VALUE_LIST_ITEMS + 1 }, () => "a") }] } };
    const res = await api.rest("POST", "/api/v1/custom-fields/Customer:preview", { token, body: { draft: { ...draft, defaultStrategy: "rule-based", defaultRules: [rule] } } });
    expect([res.status, reasonOf(res.body), violationsOf(res.body)]).toEqual([400, "VALIDATION_FAILED", ["draft.defaultRules[0].when.conditions[0].value"]]);
  });

  it("refuses an oversized filter over REST with the field's violation in BadRequest", async () => {
    const res = await api.rest("GET", `/api/v1/customers?tier=${"x".repeat(1001)}`, { token });
    expect([res.status, reasonOf(res.body), violationsOf(res.body)]).toEqual([400, "VALIDATION_FAILED", ['filters["tier"]']]);
  });

  it("checks the request of a server-streaming call before it starts", async () => {
    const audit = api.client(AuditService, token);
    const call = (async () => {
      for await (const _ of audit.exportAuditEntries({ filter: { actorId: "a".repeat(257) } })) void _;
    })();
    expect(await refusalOf(call)).toEqual(invalid(["filter.actorId"]));
  });

  it("refuses a value longer than its field type allows, below the global cap, as the field's violation", async () => {
    const fields = api.client(CustomFieldsService, token);
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number" });
    const customers = api.client(CustomersService, token);
    const number = "1".repeat(MAX_TEXT_LENGTH_BY_TYPE.NUMBER + 1);
    expect(await refusalOf(customers.createCustomer({ name: "A", email: "a@b.com", customFields: { score: number } }))).toEqual({
      code: "InvalidArgument",
      reason: "CUSTOM_FIELD_VALIDATION_FAILED",
      fields: ["customFields.score"],
    });
  });
});
