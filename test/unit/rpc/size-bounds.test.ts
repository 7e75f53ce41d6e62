/**
 * The size pre-check of the validation interceptor: each kind of bound is refused with the
 * violation protovalidate itself reports (same field path, same words), every `*.bounds` rule of
 * the contract is one it evaluates (and so one protovalidate no longer has to), and a request
 * within the bounds still goes through protovalidate's other rules.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fromJson, getOption, type DescField, type DescMessage, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { createValidator } from "@bufbuild/protovalidate";
import { field as fieldRulesOption } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { Code } from "@connectrpc/connect";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { OrganizationService } from "@files-and-fields/client/gen/customfields/v1/organization_service_pb.js";
import { CustomersService } from "@files-and-fields/client/gen/customers/v1/customers_service_pb.js";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { isBoundsRule, jsonSizeRule } from "../../../src/rpc/interceptors/json-size-rules.js";
import { firstSizeViolation } from "../../../src/rpc/interceptors/size-bounds.js";
import { codePointsExceed, utf8BytesExceed } from "../../../src/rpc/interceptors/text-size.js";
import { validationSchemas } from "../../../src/rpc/interceptors/validation-schema.js";
import { jsonPath } from "../../../src/rpc/interceptors/violation-path.js";
import { failureOf, reasonOf, violationsOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

const input = (service: { methods: { name: string; input: DescMessage }[] }, name: string) => service.methods.find((m) => m.name === name)!.input;
const createDefinition = input(CustomFieldsService, "CreateFieldDefinition");
const preview = input(CustomFieldsService, "PreviewFieldDefinition");
const createCustomer = input(CustomersService, "CreateCustomer");
const updateCustomer = input(CustomersService, "UpdateCustomer");
const listCustomers = input(CustomersService, "ListCustomers");
const updateProfile = input(OrganizationService, "UpdateOrganizationProfile");
const initiateUpload = input(FileStorageService, "InitiateUpload");

const protovalidate = createValidator();

/** Every violation protovalidate (on the contract as written) reports, as the API spells them. */
function protovalidateViolations(schema: DescMessage, message: ReturnType<typeof fromJson>) {
  const result = protovalidate.validate(schema, message);
  return result.kind === "invalid" ? result.violations.map((v) => ({ field: jsonPath(v.field), description: v.message })) : [];
}

function preChecked(schema: DescMessage, message: ReturnType<typeof fromJson>) {
  const found = firstSizeViolation(schema, message);
  return found && { field: jsonPath(found.path), description: found.message };
}

const many = <T extends JsonValue>(n: number, item: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => item(i));
const keys = (n: number): JsonObject => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
const draft = { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "select" };
const ruleWith = (value: JsonValue) => ({ name: "r", when: { operator: "AND", conditions: [{ field: "entity.name", operator: "in", value }] } });

const oversized: [string, DescMessage, JsonObject, string][] = [
  ["a string past max_len", createDefinition, { ...draft, entityType: `C${"x".repeat(64)}` }, "entityType"],
  ["a string past max_len in code points (astral characters)", createDefinition, { ...draft, fieldLabel: "😀".repeat(201) }, "fieldLabel"],
  ["a string past max_bytes", initiateUpload, { objectClass: "REPORT", ownerEntityType: "Customer", ownerEntityId: "c1", originalFilename: "é".repeat(128), contentType: "application/pdf", fileSize: "1" }, "originalFilename"],
  ["a repeated field past max_items", createDefinition, { ...draft, defaultRules: many(101, () => ({})) }, "defaultRules"],
  ["a list item past its max_len", updateProfile, { modules: ["a", "m".repeat(65)] }, "modules[1]"],
  ["a map past max_pairs", listCustomers, { filters: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}__eq`, "1"])) }, "filters"],
  ["a map key past max_len", listCustomers, { filters: { [`${"k".repeat(129)}`]: "1" } }, `filters["${"k".repeat(129)}"]`],
  ["a map value past max_len", listCustomers, { filters: { tier: "x".repeat(1001) } }, 'filters["tier"]'],
  ["a nested message's string", createDefinition, { ...draft, uiConfig: { options: [{ label: "l".repeat(201), value: "v" }] } }, "uiConfig.options[0].label"],
  ["a Struct with too many keys", createCustomer, { name: "A", customFields: keys(501) }, "customFields"],
  ["a Struct key too long", createCustomer, { name: "A", customFields: { ["k".repeat(65)]: 1 } }, "customFields"],
  ["a Struct string value too long", createCustomer, { name: "A", customFields: { note: "x".repeat(10_001) } }, "customFields"],
  ["a Struct list value too long", createCustomer, { name: "A", customFields: { tags: many(1001, () => 1) } }, "customFields"],
  ["a Struct object value too wide", createCustomer, { name: "A", customFields: { meta: keys(501) } }, "customFields"],
  ["a Value too long, deep in a draft", preview, { entityType: "Customer", draft: { ...draft, defaultRules: [ruleWith(many(1001, () => "a"))] } }, "draft.defaultRules[0].when.conditions[0].value"],
  ["a Value object too wide", preview, { entityType: "Customer", draft: { ...draft, defaultRules: [{ name: "r", then: { defaultValue: keys(501) } }] } }, "draft.defaultRules[0].then.defaultValue"],
  ["a FieldMask with too many paths", updateCustomer, { id: "0190a0a0-0000-7000-8000-000000000000", updateMask: many(51, (i) => `p${i}`).join(",") }, "updateMask"],
  ["a FieldMask path too long", updateCustomer, { id: "0190a0a0-0000-7000-8000-000000000000", updateMask: "p".repeat(129) }, "updateMask"],
];

describe("the size pre-check", () => {
  it.each(oversized)("refuses %s with protovalidate's violation", (_, schema, json, field) => {
    const message = fromJson(schema, json);
    const found = preChecked(schema, message);
    expect(found?.field).toBe(field);
    expect(protovalidateViolations(schema, message)).toContainEqual(found);
  });

  it("lets values at their bounds through to protovalidate", () => {
    const atBounds: [DescMessage, JsonObject][] = [
      [createDefinition, { ...draft, entityType: `C${"x".repeat(63)}`, fieldLabel: "😀".repeat(200), defaultRules: many(100, () => ({})) }],
      [createCustomer, { name: "A", customFields: { ...keys(498), ["k".repeat(64)]: { ...keys(500) }, note: "x".repeat(10_000) } }],
      [listCustomers, { filters: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${"k".repeat(125)}${i}`, "x".repeat(1000)])) }],
      [updateCustomer, { id: "0190a0a0-0000-7000-8000-000000000000", updateMask: many(50, (i) => `${"p".repeat(126)}${i}`).join(",") }],
    ];
    for (const [schema, json] of atBounds) {
      const message = fromJson(schema, json);
      expect(preChecked(schema, message)).toBeUndefined();
      expect(protovalidateViolations(schema, message).filter((v) => /at most|no more than/.test(v.description))).toEqual([]);
    }
  });

  it("counts code points and UTF-8 bytes as protovalidate does, lone surrogates included", () => {
    const text = fc.array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xffff }), fc.constantFrom(0xd83d, 0xde00)), { maxLength: 40 }).map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 60 }), (s, max) => {
        expect(codePointsExceed(s, max)).toBe([...s].length > max);
        expect(utf8BytesExceed(s, max)).toBe(Buffer.byteLength(s, "utf8") > max);
      }),
      { numRuns: 2000 },
    );
  });
});

const GEN = path.resolve(import.meta.dirname, "../../../packages/client/gen");

/** Every request type of the contract (the services of gen/, third-party protos left out). */
async function requestTypes(): Promise<DescMessage[]> {
  const types: DescMessage[] = [];
  for (const pkg of readdirSync(GEN).filter((dir) => dir !== "google" && dir !== "grpc")) {
    for (const version of readdirSync(path.join(GEN, pkg))) {
      for (const name of readdirSync(path.join(GEN, pkg, version)).filter((f) => f.endsWith("_pb.ts"))) {
        const module = (await import(path.join(GEN, pkg, version, name))) as Record<string, { kind?: string; methods?: { input: DescMessage }[] }>;
        for (const value of Object.values(module)) if (value.kind === "service") types.push(...value.methods!.map((m) => m.input));
      }
    }
  }
  return types;
}

/** Every field reachable from `schema`, once. */
function reachableFields(schema: DescMessage, seen = new Set<string>()): DescField[] {
  if (seen.has(schema.typeName)) return [];
  seen.add(schema.typeName);
  return schema.fields.flatMap((field) => [field, ...(field.message && !field.message.typeName.startsWith("google.") ? reachableFields(field.message, seen) : [])]);
}

describe("the `*.bounds` rules of the contract", () => {
  it("are each recognised by the pre-check, and left out of what protovalidate evaluates", async () => {
    const twinOf = validationSchemas();
    let recognised = 0;
    for (const schema of await requestTypes()) {
      const twin = twinOf(schema);
      for (const field of reachableFields(schema)) {
        const rules = getOption(field, fieldRulesOption);
        const cel = [...rules.cel, ...(rules.type.case === "repeated" ? (rules.type.value.items?.cel ?? []) : []), ...(rules.type.case === "map" ? (rules.type.value.values?.cel ?? []) : [])];
        for (const rule of cel.filter(isBoundsRule)) {
          expect(jsonSizeRule(field, rule), `${field.parent.typeName}.${field.name}: ${rule.id}`).toBeDefined();
          recognised++;
        }
      }
      for (const field of reachableFields(twin)) expect(getOption(field, fieldRulesOption).cel.filter(isBoundsRule), `${field.parent.typeName}.${field.name}`).toEqual([]);
    }
    expect(recognised).toBeGreaterThan(0);
  });
});

describe("the validation interceptor", () => {
  let api: InMemoryApi;
  let token: string;
  beforeEach(async () => {
    api = inMemoryApi();
    token = await api.token("t1");
  });

  it("answers a pre-checked bound as protovalidate would: INVALID_ARGUMENT, VALIDATION_FAILED, the field", async () => {
    const error = await failureOf(api.client(CustomFieldsService, token).createFieldDefinition({ ...draft, entityType: "C".repeat(200_000) }));
    expect([error.code, reasonOf(error), violationsOf(error)]).toEqual([Code.InvalidArgument, "VALIDATION_FAILED", ["entityType"]]);
    expect(error.rawMessage).toBe("entityType: must be at most 64 characters");
  });

  it("still runs protovalidate's other rules on a request within the bounds", async () => {
    const error = await failureOf(api.client(CustomFieldsService, token).createFieldDefinition({ ...draft, entityType: "customer" }));
    expect([error.code, reasonOf(error), violationsOf(error)]).toEqual([Code.InvalidArgument, "VALIDATION_FAILED", ["entityType"]]);
    expect(error.rawMessage).toContain("does not match regex pattern");
  });

  it("accepts a Struct within its bounds however large its values, and still finds a NUL deep inside", async () => {
    const wide: JsonObject = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, { ...keys(100), deep: [[`a${i === 99 ? "\u0000" : ""}`]] }]));
    const error = await failureOf(api.client(CustomFieldsService, token).validateValuesForUpdate({ entityType: "Customer", customFields: {}, context: wide }));
    expect([reasonOf(error), violationsOf(error)]).toEqual(["VALIDATION_FAILED", ["context.k99.deep[0][0]"]]);
  });
});
