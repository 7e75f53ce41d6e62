/**
 * Request fuzzing of the custom-field, customer and webhook RPCs (the file-storage RPCs are fuzzed
 * in hostile.test.ts): random and boundary bodies built from the message shapes (wrong types, huge
 * strings, unicode, nested junk, unknown keys, random formulas, patterns, rules and filters) over
 * REST, and typed random messages over gRPC. Every answer is a 200 or a client error with an
 * expected code, never a 5xx; and afterwards the tenant's rows are exactly those whose calls
 * answered 200, as they answered them (no partial write).
 */
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WebhookService } from "../../gen/filestorage/v1/webhooks_service_pb.js";
import { clientsFor, rest, tokenFor, transportFor, uniqueTenant, type RestResponse } from "../support/clients.js";
import { sql } from "../support/stack-access.js";

// ---------------------------------------------------------------------------------------------
// Building blocks

const often = <T,>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: good as fc.Arbitrary<unknown>, weight: 4 }, { arbitrary: bad, weight: 1 });

/** A valid value with one key (existing or new) replaced by junk or an edge string, or removed. */
const mutated = <T extends Record<string, unknown>>(valid: fc.Arbitrary<T>, keys: string[]) =>
  fc
    .tuple(valid, fc.constantFrom(...keys), fc.oneof(junk, edgeString, fc.constant(undefined)))
    .map(([body, key, value]) => {
      const copy: Record<string, unknown> = { ...body };
      if (value === undefined) delete copy[key];
      else copy[key] = value;
      return copy;
    });

/** Strings at the edges: empty, huge, NUL, lone surrogates, RTL override, emoji, prototype names. */
const edgeString = fc.constantFrom(
  "",
  " ",
  "x".repeat(70_000),
  "é".repeat(3000),
  "😀".repeat(600),
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "\u202eevil",
  "\u200b",
  "null",
  "__proto__",
  "constructor",
  "toString",
  "'; drop table customers; --",
  "%00",
  "${jndi:ldap://x}",
);
const text = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: "binary", maxLength: 30 }), edgeString);
/** Nested JSON junk of any type. */
const junk: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 3 }), edgeString, fc.constantFrom(1e308, -1e308, 2 ** 53, -0, 0.1));
const int32ish = fc.oneof(
  fc.integer({ min: -5, max: 200 }),
  fc.constantFrom(2147483647, 2147483648, -2147483648, -2147483649, 1.5, 1e20, "12", "1e3", "0x10", "", "NaN"),
);
const doubleish = fc.oneof(fc.double({ noNaN: false }), fc.integer(), fc.constantFrom("Infinity", "-Infinity", "NaN", "1e999", "5", "abc"));
const dateText = fc.constantFrom("2024-01-01", "2024-02-30", "0000-01-01", "9999-12-31", "2024-1-1", "yesterday", "2024-01-01T00:00:00Z", "+275760-09-13");
/** Unknown keys next to the known ones: the API refuses them rather than ignoring them. */
const unknownKeys = fc.option(fc.dictionary(fc.constantFrom("extra", "__proto__", "constructor", "fieldkey", "tenantId", "id", "version"), junk, { minKeys: 1, maxKeys: 2 }), { freq: 6 });

const FIELD_KEYS = ["alpha", "beta", "gamma", "score", "tier", "since", "a_b", "x", "a".repeat(64), "a".repeat(65), "__proto__", "constructor", "Alpha", "a-b", ""];
const OK_KEYS = FIELD_KEYS.slice(0, 9);
const FIELD_TYPES = ["string", "number", "boolean", "date", "select", "json", "computed", "STRING", "NUMBER", "SELECT", "COMPUTED", "Select", "rule_based", "text", ""];
const STRATEGIES = ["static", "rule-based", "computed", "STATIC", "RULE_BASED", "COMPUTED", "Rule-Based", "dynamic", ""];

/** Formulas from a grammar over field keys, context paths, literals, operators and functions (allowed or not). */
const formula: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...OK_KEYS, "entity.name", "user.id", "customer.x", "organization.id", "1", "2.5", "-3", "1e999", "'text'", '"q"', "true", "null", "pi", "e", "undefined"),
    fc.tuple(tie("expr"), fc.constantFrom("+", "-", "*", "/", "^", "%", "==", "!=", "<", ">=", "and", "or", "?", ":", "=", ".", ";"), tie("expr")).map(([a, o, b]) => `${a} ${o} ${b}`),
    fc
      .tuple(
        fc.constantFrom("round", "abs", "max", "min", "concat", "if", "sqrt", "lower", "upper", "import", "evaluate", "createUnit", "parse", "simplify", "eval", "Function", "constructor", "range", "zeros"),
        fc.array(tie("expr"), { maxLength: 3 }),
      )
      .map(([f, args]) => `${f}(${args.join(", ")})`),
    tie("expr").map((e) => `(${e})`),
    tie("expr").map((e) => `[${e}]`),
  ),
})).expr;
const formulaish = fc.oneof(
  formula,
  text,
  fc.constantFrom("", "((((", "a".repeat(1001), "x = 1", "f(x) = x", "cos.constructor('return process')()", "{a: 1}", "score score", "1 +", "zeros(1e9)", "range(1, 1e12)", "2^2^2^2^2^2"),
);
/** Regular expressions: fine, catastrophic, unsupported by RE2, broken, huge. */
const pattern = fc.oneof(
  fc.constantFrom("^[a-z]+$", "(a+)+$", "(a|a)*b", "(?=x)", "(?<!x)y", "(a)\\1", "[", "\\", "a{1000000}", ".*".repeat(200), "\\p{L}+", "(?<n>a)\\k<n>", "", "x".repeat(5000), "(?i)abc", "^\\d{3}-\\d{4}$"),
  fc.string({ maxLength: 20 }),
);
const jsonScalar = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const validation = fc.record(
  {
    min: often(doubleish, junk),
    max: often(doubleish, junk),
    minLength: often(int32ish, junk),
    maxLength: often(int32ish, junk),
    pattern: often(pattern, junk),
    enum: often(fc.array(text, { maxLength: 4 }), junk),
    minDate: often(dateText, junk),
    maxDate: often(dateText, junk),
  },
  { requiredKeys: [] },
);
const condition = fc.record(
  {
    field: often(fc.constantFrom("entity.name", "entity.email", "user.role", "user.id", "organization.plan", "customer.customFields.score", "__proto__.x", "entity", "", "a.b.c.d.e.f.g.h"), junk),
    operator: often(fc.constantFrom("equals", "notEquals", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual", "in", "notIn", "contains", "startsWith", "endsWith", "exists", "notExists", "matches", "EQUALS", ""), junk),
    value: junk,
  },
  { requiredKeys: [] },
);
const outcome = fc.record({ required: often(fc.boolean(), junk), defaultValue: junk, validation: often(validation, junk) }, { requiredKeys: [] });
const rule = fc.record(
  {
    name: often(text, junk),
    priority: often(doubleish, junk),
    when: often(fc.record({ operator: often(fc.constantFrom("AND", "OR", "and", "XOR", ""), junk), conditions: often(fc.array(condition, { maxLength: 3 }), junk) }, { requiredKeys: [] }), junk),
    then: often(outcome, junk),
    else: often(outcome, junk),
  },
  { requiredKeys: [] },
);
const rules = often(fc.array(rule, { maxLength: 3 }), junk);
const uiConfig = fc.record(
  {
    placeholder: often(text, junk),
    hidden: often(fc.boolean(), junk),
    readOnly: often(fc.boolean(), junk),
    options: often(fc.array(fc.record({ label: often(text, junk), value: often(fc.constantFrom("a", "b", "gold", "", "a"), junk) }, { requiredKeys: [] }), { maxLength: 4 }), junk),
  },
  { requiredKeys: [] },
);

/** The writable fields of a definition, each present or not, mostly well-typed. */
const definitionFields = fc.record(
  {
    fieldLabel: often(text, junk),
    description: often(fc.oneof(text, fc.constant(null)), junk),
    fieldType: often(fc.constantFrom(...FIELD_TYPES), junk),
    isRequired: often(fc.boolean(), junk),
    displayOrder: often(int32ish, junk),
    defaultStrategy: often(fc.constantFrom(...STRATEGIES), junk),
    defaultValue: often(fc.oneof(text, fc.constantFrom("1", "gold", "2024-01-01", "true", '{"a":1}')), junk),
    computedFormula: often(formulaish, junk),
    defaultRules: rules,
    validation: often(validation, junk),
    validationRules: rules,
    uiConfig: often(uiConfig, junk),
    isActive: often(fc.boolean(), junk),
    indexed: often(fc.constantFrom(false, false, false, true), junk),
  },
  { requiredKeys: [] },
);
const entityType = often(fc.constantFrom("Customer", "Customer", "Product", "customer", "C".repeat(65), "Cust omer", ""), junk);
const fieldKey = often(fc.constantFrom(...FIELD_KEYS), junk);

const label = fc.oneof(fc.constantFrom("Label", "Größe", "名前", "😀"), fc.string({ minLength: 1, maxLength: 40 }).filter((t) => t.trim() !== "" && !t.includes("\u0000")));
/** Definitions the service should accept (mostly): each strategy and type with sensible settings. */
const validDefinition = fc.oneof(
  fc.record(
    {
      entityType: fc.constantFrom("Customer", "Product"),
      fieldKey: fc.constantFrom(...OK_KEYS),
      fieldLabel: label,
      fieldType: fc.constantFrom("string", "number", "boolean", "date", "json", "STRING"),
      description: fc.string({ maxLength: 50 }),
      isRequired: fc.boolean(),
      displayOrder: fc.integer({ min: -1000, max: 1000 }),
      isActive: fc.boolean(),
      indexed: fc.constantFrom(false, false, true),
    },
    { requiredKeys: ["entityType", "fieldKey", "fieldLabel", "fieldType"] },
  ),
  fc.record({
    entityType: fc.constant("Customer"),
    fieldKey: fc.constantFrom(...OK_KEYS),
    fieldLabel: label,
    fieldType: fc.constant("select"),
    uiConfig: fc.constant({ options: [{ label: "Gold", value: "gold" }, { label: "Silver", value: "silver" }] }),
    defaultValue: fc.constantFrom("gold", "silver"),
  }),
  fc.record({
    entityType: fc.constant("Customer"),
    fieldKey: fc.constantFrom(...OK_KEYS),
    fieldLabel: label,
    fieldType: fc.constant("computed"),
    computedFormula: fc.oneof(formula, fc.constantFrom("score * 2", "round(score / 3)", "concat(entity.name, '!')")),
  }),
  fc.record({
    entityType: fc.constant("Customer"),
    fieldKey: fc.constantFrom(...OK_KEYS),
    fieldLabel: label,
    fieldType: fc.constant("string"),
    defaultStrategy: fc.constant("rule-based"),
    defaultRules: fc.constant([{ name: "de", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.email", operator: "endsWith", value: ".de" }] }, then: { defaultValue: "EU" } }]),
    validation: fc.record({ minLength: fc.integer({ min: 0, max: 3 }), maxLength: fc.integer({ min: 3, max: 100 }), pattern }, { requiredKeys: [] }),
  }),
);
const DEFINITION_KEYS = ["entityType", "fieldKey", "fieldLabel", "fieldType", "description", "displayOrder", "defaultStrategy", "defaultValue", "computedFormula", "defaultRules", "validation", "uiConfig", "isActive", "indexed", "validationRules", "unknownKey"];

const randomDefinitionBody = fc
  .tuple(
    fc.record({
      entityType,
      fieldKey,
      fieldLabel: often(fc.oneof(fc.constant("Label"), text), junk),
      fieldType: often(fc.constantFrom("string", "number", "boolean", "date", "json", "select", "computed", ...FIELD_TYPES), junk),
    }),
    definitionFields,
    unknownKeys,
  )
  .map(([core, rest, extra]) => ({ ...core, ...rest, ...(extra ?? {}) }));

const createDefinitionBody = fc.oneof(
  { weight: 3, arbitrary: validDefinition as fc.Arbitrary<Record<string, unknown>> },
  { weight: 3, arbitrary: mutated(validDefinition as fc.Arbitrary<Record<string, unknown>>, DEFINITION_KEYS) },
  { weight: 2, arbitrary: randomDefinitionBody },
);

const validUpdate = fc.record(
  {
    fieldLabel: label,
    description: fc.oneof(fc.string({ maxLength: 50 }), fc.constant(null)),
    isRequired: fc.boolean(),
    displayOrder: fc.integer({ min: -1000, max: 1000 }),
    isActive: fc.boolean(),
    expectedVersion: fc.integer({ min: 1, max: 3 }),
  },
  { requiredKeys: [] },
);

const randomUpdateDefinitionBody = fc
  .tuple(
    definitionFields,
    fc.record({ entityType, fieldKey, expectedVersion: often(fc.integer({ min: -1, max: 4 }), junk), updateMask: often(fc.constantFrom("fieldLabel", "description,displayOrder", "field_label", "id", "nope", "fieldKey", ""), junk) }, { requiredKeys: [] }),
    unknownKeys,
  )
  .map(([fields, plumbing, extra]) => ({ ...fields, ...plumbing, ...(extra ?? {}) }));
const updateDefinitionBody = fc.oneof(
  { weight: 3, arbitrary: validUpdate as fc.Arbitrary<Record<string, unknown>> },
  { weight: 2, arbitrary: mutated(validUpdate as fc.Arbitrary<Record<string, unknown>>, [...DEFINITION_KEYS, "expectedVersion", "updateMask"]) },
  { weight: 3, arbitrary: randomUpdateDefinitionBody },
);

/** An id in the path: one we created, one that does not exist, or junk (encoded). */
const pathId = (known: () => string[], format: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.nat().map((n) => known()[n % Math.max(known().length, 1)] ?? "none") },
    { weight: 2, arbitrary: format },
    { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 80 }), edgeString.filter((s) => s.length < 200), fc.constantFrom("a/b", "%2F", "..a")).map(pathSegment) },
  );

/** A non-empty path segment (`.`, `..` and empty segments would name another route); lone surrogates become invalid UTF-8. */
function pathSegment(raw: string): string {
  if (raw === "" || raw === "." || raw === "..") return "%2E%2E%2E";
  try {
    return encodeURIComponent(raw);
  } catch {
    return "%ED%A0%80";
  }
}

/** Error answers the API may give a well-authenticated caller for bad input; never a 5xx. */
function expectClientOutcome(what: string, res: RestResponse, codes: string[]) {
  const described = `${what} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 600)}`;
  expect(res.status, described).toBeLessThan(500);
  if (res.status === 200) return;
  expect(codes, described).toContain(res.body?.code);
}

const describeCall = (method: string, path: string, body?: unknown) => `${method} ${path} ${JSON.stringify(body)?.slice(0, 400)}`;

/** A page token in the token format, with random contents bound to the right query. */
const craftedToken = (filterKey: string) =>
  fc
    .record({
      c: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.constantFrom("+275760-09-13T00:00:00.000Z", "-271821-04-20T00:00:00.000Z", "2024", "0", "1e3", ""), fc.string({ maxLength: 10 })),
      i: fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }), fc.constantFrom("", "ffffffff-ffff-ffff-ffff-ffffffffffff", "' or 1=1 --")),
      f: fc.constant(filterKey),
    })
    .map((json) => Buffer.from(JSON.stringify(json)).toString("base64url"));

// ---------------------------------------------------------------------------------------------
// Custom field definitions

interface DefinitionModel {
  /** The last 200 answer for this definition. */
  last: any;
  deleted: boolean;
  /** Successful writes: create, updates, delete; each has exactly one audit row. */
  writes: number;
}

async function expectDefinitionRows(tenant: string, model: Map<string, DefinitionModel>) {
  const rows = await sql<any>("select * from custom_field_definitions where tenant_id = ?", [tenant]);
  expect(rows.map((r) => r.id).sort()).toEqual([...model.keys()].sort());
  const audits = await sql<any>("select definition_id, count(*)::int as n from custom_field_definition_audit where tenant_id = ? group by definition_id", [tenant]);
  const auditCount = new Map(audits.map((a) => [a.definition_id, a.n]));
  for (const row of rows) {
    const m = model.get(row.id)!;
    const expected = m.last;
    expect(row.deleted_at !== null, row.id).toBe(m.deleted);
    expect(auditCount.get(row.id), row.id).toBe(m.writes);
    expect(
      {
        version: row.version - (m.deleted ? 1 : 0),
        entityType: row.entity_type,
        fieldKey: row.field_key,
        fieldLabel: row.field_label,
        fieldType: row.field_type.toLowerCase(),
        description: row.description ?? undefined,
        defaultValue: row.default_value ?? undefined,
        computedFormula: row.computed_formula ?? undefined,
        isActive: m.deleted ? expected.isActive : row.is_active,
        displayOrder: row.display_order,
      },
      row.id,
    ).toEqual({
      version: expected.version,
      entityType: expected.entityType,
      fieldKey: expected.fieldKey,
      fieldLabel: expected.fieldLabel,
      fieldType: expected.fieldType,
      description: expected.description,
      defaultValue: expected.defaultValue,
      computedFormula: expected.computedFormula,
      isActive: expected.isActive,
      displayOrder: expected.displayOrder,
    });
  }
}

describe("fuzzing the custom field definition RPCs", () => {
  it("random create, update and delete calls never produce a 5xx, and leave exactly the rows that answered 200", async () => {
    const tenant = uniqueTenant("fz-cf");
    const token = await tokenFor(tenant);
    const model = new Map<string, DefinitionModel>();
    const ids = () => [...model.keys()];
    const action = fc.oneof(
      { weight: 5, arbitrary: fc.record({ kind: fc.constant("create" as const), body: createDefinitionBody }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant("update" as const), id: pathId(ids, fc.stringMatching(/^[a-z][a-z0-9]{23}$/)), body: updateDefinitionBody }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), id: pathId(ids, fc.stringMatching(/^[a-z][a-z0-9]{23}$/)) }) },
    );
    await fc.assert(
      fc.asyncProperty(action, async (a) => {
        if (a.kind === "create") {
          const res = await rest("POST", "/api/v1/custom-fields", { token, body: a.body });
          expectClientOutcome(describeCall("POST", "/api/v1/custom-fields", a.body), res, ["invalid_argument", "already_exists"]);
          if (res.status === 200) model.set(res.body.fieldDefinition.id, { last: res.body.fieldDefinition, deleted: false, writes: 1 });
        } else if (a.kind === "update") {
          const path = `/api/v1/custom-fields/${a.id}`;
          const res = await rest("PATCH", path, { token, body: a.body });
          expectClientOutcome(describeCall("PATCH", path, a.body), res, ["invalid_argument", "not_found", "aborted"]);
          if (res.status === 200) {
            const m = model.get(a.id)!;
            expect(res.body.fieldDefinition.version).toBe(m.last.version + 1);
            model.set(a.id, { last: res.body.fieldDefinition, deleted: false, writes: m.writes + 1 });
          }
        } else {
          const path = `/api/v1/custom-fields/${a.id}`;
          const res = await rest("DELETE", path, { token });
          expectClientOutcome(describeCall("DELETE", path), res, ["invalid_argument", "not_found"]);
          if (res.status === 200) {
            const m = model.get(a.id)!;
            model.set(a.id, { ...m, deleted: true, writes: m.writes + 1 });
          }
        }
      }),
      { numRuns: 150 },
    );
    expect(model.size, "some creates succeeded").toBeGreaterThan(0);
    await expectDefinitionRows(tenant, model);
    // What the API lists is what the model says is live and active.
    for (const type of new Set([...model.values()].map((m) => m.last.entityType))) {
      const listed = await rest("GET", `/api/v1/custom-fields/${type}`, { token });
      const live = [...model.entries()].filter(([, m]) => !m.deleted && m.last.isActive && m.last.entityType === type).map(([id]) => id);
      expect(listed.body.fieldDefinitions.map((d: any) => d.id).sort()).toEqual(live.sort());
    }
  });

  it("random integration calls (resolve, validate, parse filters) never produce a 5xx", async () => {
    const token = await tokenFor(uniqueTenant("fz-cf"));
    for (const body of [
      { entityType: "Customer", fieldKey: "score", fieldLabel: "S", fieldType: "number", validation: { min: 0, max: 100 } },
      { entityType: "Customer", fieldKey: "tier", fieldLabel: "T", fieldType: "select", uiConfig: { options: [{ label: "G", value: "gold" }] } },
      { entityType: "Customer", fieldKey: "twice", fieldLabel: "2", fieldType: "computed", computedFormula: "score * 2" },
      { entityType: "Customer", fieldKey: "since", fieldLabel: "D", fieldType: "date" },
    ]) {
      expect((await rest("POST", "/api/v1/custom-fields", { token, body })).status).toBe(200);
    }
    const values = fc.dictionary(fc.constantFrom("score", "tier", "twice", "since", "unknown", "__proto__", "constructor"), junk, { maxKeys: 4 });
    const call = fc.oneof(
      fc.record({ path: fc.constantFrom("Customer:resolve", "Customer:validate", "Product:resolve", "bad type:validate"), body: fc.record({ customFields: often(values, junk), context: often(fc.dictionary(fc.constantFrom("entity", "user", "organization", "customer", "__proto__"), junk, { maxKeys: 3 }), junk) }, { requiredKeys: [] }) }),
      fc.record({ path: fc.constantFrom("Customer:parse-filters"), body: fc.record({ query: often(fc.dictionary(fc.string({ maxLength: 20 }).map((s) => `${s}__${s.slice(0, 3)}`), fc.string({ maxLength: 20 }), { maxKeys: 4 }), junk) }, { requiredKeys: [] }) }),
    );
    await fc.assert(
      fc.asyncProperty(call, async ({ path, body }) => {
        const url = `/api/v1/custom-fields/${encodeURIComponent(path.split(":")[0]!)}:${path.split(":")[1]}`;
        const res = await rest("POST", url, { token, body });
        expectClientOutcome(describeCall("POST", url, body), res, ["invalid_argument"]);
      }),
      { numRuns: 100 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Customers

const CUSTOMER_DEFINITIONS = [
  { fieldKey: "tier", fieldLabel: "Tier", fieldType: "select", defaultValue: "bronze", uiConfig: { options: ["gold", "silver", "bronze"].map((v) => ({ label: v, value: v })) } },
  { fieldKey: "region", fieldLabel: "Region", fieldType: "string", defaultStrategy: "rule-based", defaultRules: [{ name: "de", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.email", operator: "endsWith", value: ".de" }] }, then: { defaultValue: "EU" } }] },
  { fieldKey: "score", fieldLabel: "Score", fieldType: "number", validation: { min: 0, max: 100 }, indexed: true },
  { fieldKey: "double_score", fieldLabel: "Double", fieldType: "computed", computedFormula: "score * 2" },
  { fieldKey: "since", fieldLabel: "Since", fieldType: "date", indexed: true },
  { fieldKey: "vip", fieldLabel: "VIP", fieldType: "boolean" },
  { fieldKey: "nickname", fieldLabel: "Nickname", fieldType: "string", validation: { maxLength: 50, pattern: "^[a-z ]*$" } },
  { fieldKey: "meta", fieldLabel: "Meta", fieldType: "json" },
];
const CUSTOMER_KEYS = CUSTOMER_DEFINITIONS.map((d) => d.fieldKey);

async function customerTenant(prefix: string) {
  const tenant = uniqueTenant(prefix);
  const token = await tokenFor(tenant);
  for (const definition of CUSTOMER_DEFINITIONS) {
    const res = await rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", ...definition } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { tenant, token };
}

const customFieldValue = fc.oneof(
  fc.constantFrom("gold", "silver", "platinum", "EU", 0, 50, 100, 101, -1, "42", "2024-01-01", "2024-02-30", true, "true", "yes", "abc", "a b"),
  jsonScalar,
  junk,
);
const customFields = often(fc.dictionary(fc.oneof(fc.constantFrom(...CUSTOMER_KEYS), fc.constantFrom("unknown", "__proto__", "constructor", "", "a.b"), fc.string({ maxLength: 8 })), customFieldValue, { maxKeys: 5 }), junk);
const email = fc.oneof(fc.emailAddress(), fc.constantFrom("a@b.de", "anna@example.com", "not-an-email", "@", "a@", "a@b", `${"x".repeat(320)}@example.com`, "ü@exämple.de", "a@b.c\u0000"), text);
const validCustomFields = fc.record(
  {
    tier: fc.constantFrom("gold", "silver", "bronze"),
    score: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom("42", 0.5)),
    since: fc.constantFrom("2024-01-01", "1999-12-31"),
    vip: fc.boolean(),
    nickname: fc.stringMatching(/^[a-z ]{0,20}$/),
    meta: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: [] },
);
const validCustomer = fc.record(
  { name: fc.oneof(fc.constantFrom("Anna", "Bob", "Ünal Çelik", "李雷"), label), email: fc.constantFrom("anna@example.de", "bob@example.com", "x.y+z@sub.example.org"), customFields: validCustomFields },
  { requiredKeys: ["name", "email"] },
);
const CUSTOMER_BODY_KEYS = ["name", "email", "customFields", "expectedVersion", "updateMask", "id", "version"];
const randomCustomerBody = fc
  .tuple(fc.record({ name: often(fc.oneof(fc.constantFrom("Anna", "Bob"), text), junk), email: often(email, junk), customFields }, { requiredKeys: [] }), unknownKeys)
  .map(([body, extra]) => ({ ...body, ...(extra ?? {}) }));
const createCustomerBody = fc.oneof(
  { weight: 3, arbitrary: validCustomer as fc.Arbitrary<Record<string, unknown>> },
  { weight: 3, arbitrary: mutated(validCustomer as fc.Arbitrary<Record<string, unknown>>, CUSTOMER_BODY_KEYS) },
  { weight: 1, arbitrary: validCustomer.chain((c) => mutated(fc.constant(c.customFields ?? {}), [...CUSTOMER_KEYS, "unknown"]).map((customFields) => ({ ...c, customFields }))) },
  { weight: 2, arbitrary: randomCustomerBody },
);
const validCustomerUpdate = fc.record(
  { name: validCustomer.map((c) => c.name), email: validCustomer.map((c) => c.email), customFields: validCustomFields, expectedVersion: fc.integer({ min: 1, max: 3 }) },
  { requiredKeys: [] },
);
const randomUpdateCustomerBody = fc
  .tuple(
    fc.record(
      {
        name: often(fc.oneof(fc.constantFrom("Anna", "Bob"), text, fc.constant(null)), junk),
        email: often(fc.oneof(email, fc.constant(null)), junk),
        customFields,
        expectedVersion: often(fc.integer({ min: -1, max: 4 }), junk),
        updateMask: often(fc.constantFrom("name", "email,customFields", "custom_fields", "id", "version", "nope", ""), junk),
      },
      { requiredKeys: [] },
    ),
    unknownKeys,
  )
  .map(([body, extra]) => ({ ...body, ...(extra ?? {}) }));
const updateCustomerBody = fc.oneof(
  { weight: 3, arbitrary: validCustomerUpdate as fc.Arbitrary<Record<string, unknown>> },
  { weight: 2, arbitrary: mutated(validCustomerUpdate as fc.Arbitrary<Record<string, unknown>>, CUSTOMER_BODY_KEYS) },
  { weight: 2, arbitrary: randomUpdateCustomerBody },
);

const FILTER_OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "icontains", "startswith", "endswith", "isnull", "between"];
const filterValue = fc.oneof(
  fc.constantFrom("1", "0", "-1", "50,60", "1,2,3", "true", "false", "null", "2024-01-01", "2024-01-01,2024-12-31", "gold", "gold,silver", "%", "_", "\\", "'", "a'b", "1e308", "NaN", "Infinity", "", ",", ",,,"),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 10 }),
  fc.constantFrom("9".repeat(400), "x".repeat(1001), Array.from({ length: 150 }, (_, i) => String(i)).join(",")),
);
const filterKeyArb = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...CUSTOMER_KEYS), fc.constantFrom(...FILTER_OPERATORS)).map(([k, o]) => `${k}__${o}`) },
  { weight: 1, arbitrary: fc.constantFrom(...CUSTOMER_KEYS) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...CUSTOMER_KEYS, "unknown", "__proto__", "meta.a", ""), fc.oneof(fc.constantFrom("like", "EQ", "", "in__in", "regex"), fc.string({ maxLength: 6 }))).map(([k, o]) => `${k}__${o}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).filter((s) => s.length > 0) },
);
const LIST_FILTER_KEY = JSON.stringify([null, null, []]);
const listQuery = fc
  .record(
    {
      filters: fc.dictionary(filterKeyArb, filterValue, { maxKeys: 4 }),
      name: fc.oneof(fc.constantFrom("Anna", "Bob"), text.filter((s) => s.length < 300)),
      email: email.filter((s) => s.length < 400),
      pageSize: fc.oneof(fc.integer({ min: -2, max: 600 }), fc.constantFrom("abc", "1.5", "", "99999999999")),
      pageToken: fc.oneof(craftedToken(LIST_FILTER_KEY), fc.string({ maxLength: 30 }), fc.constantFrom("", "e30", "bnVsbA", "x".repeat(600))),
    },
    { requiredKeys: ["filters"] },
  )
  .map(({ filters, ...standard }) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(filters)) qs.set(k, v);
    for (const [k, v] of Object.entries(standard)) qs.set(k, String(v));
    return qs.toString();
  });

interface CustomerModel {
  last: any;
}

async function expectCustomerRows(tenant: string, model: Map<string, CustomerModel>) {
  const rows = await sql<any>("select * from customers where tenant_id = ?", [tenant]);
  expect(rows.map((r) => r.id).sort()).toEqual([...model.keys()].sort());
  for (const row of rows) {
    const { last } = model.get(row.id)!;
    expect({ name: row.name, email: row.email, customFields: row.custom_fields, version: row.version }, row.id).toEqual({
      name: last.name,
      email: last.email,
      customFields: last.customFields,
      version: last.version,
    });
  }
}

describe("fuzzing the customer RPCs", () => {
  it("random create and update calls never produce a 5xx, and leave exactly the rows that answered 200", async () => {
    const { tenant, token } = await customerTenant("fz-cu");
    const model = new Map<string, CustomerModel>();
    const ids = () => [...model.keys()];
    const action = fc.oneof(
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("create" as const), body: createCustomerBody }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("update" as const), id: pathId(ids, fc.uuid({ version: 7 })), body: updateCustomerBody }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("get" as const), id: pathId(ids, fc.uuid({ version: 7 })) }) },
    );
    await fc.assert(
      fc.asyncProperty(action, async (a) => {
        if (a.kind === "create") {
          const res = await rest("POST", "/api/v1/customers", { token, body: a.body });
          expectClientOutcome(describeCall("POST", "/api/v1/customers", a.body), res, ["invalid_argument"]);
          if (res.status === 200) model.set(res.body.customer.id, { last: res.body.customer });
        } else if (a.kind === "update") {
          const path = `/api/v1/customers/${a.id}`;
          const res = await rest("PATCH", path, { token, body: a.body });
          expectClientOutcome(describeCall("PATCH", path, a.body), res, ["invalid_argument", "not_found", "aborted"]);
          if (res.status === 200) {
            expect(res.body.customer.version).toBe(model.get(a.id)!.last.version + 1);
            model.set(a.id, { last: res.body.customer });
          }
        } else {
          const path = `/api/v1/customers/${a.id}`;
          const res = await rest("GET", path, { token });
          expectClientOutcome(describeCall("GET", path), res, ["invalid_argument", "not_found"]);
          if (res.status === 200) expect(res.body.customer).toEqual(model.get(a.id)!.last);
        }
      }),
      { numRuns: 150 },
    );
    expect(model.size, "some creates succeeded").toBeGreaterThan(0);
    await expectCustomerRows(tenant, model);
  });

  it("random list filters (`key__op=value`), names, page sizes and page tokens never produce a 5xx nor another tenant's rows", async () => {
    const { token } = await customerTenant("fz-cu");
    const other = await customerTenant("fz-cu-other");
    const mine: string[] = [];
    for (const body of [
      { name: "Anna", email: "anna@example.de", customFields: { score: 10, since: "2024-03-01", vip: true, nickname: "an", meta: { a: 1 } } },
      { name: "Bob", email: "bob@example.com", customFields: { tier: "gold", score: 60 } },
      { name: "Cid", email: "cid@example.com" },
    ]) {
      mine.push((await rest("POST", "/api/v1/customers", { token, body })).body.customer.id);
      await rest("POST", "/api/v1/customers", { token: other.token, body });
    }
    await fc.assert(
      fc.asyncProperty(listQuery, async (qs) => {
        const res = await rest("GET", `/api/v1/customers?${qs}`, { token });
        expectClientOutcome(`GET /api/v1/customers?${qs}`, res, ["invalid_argument"]);
        if (res.status === 200) for (const c of res.body.customers) expect(mine, qs).toContain(c.id);
      }),
      { numRuns: 150 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Webhook endpoints

const EVENT_TYPES = ["upload.initiated", "upload.completed", "scan.passed", "scan.failed", "hold.placed", "download_url.issued"];
const webhookUrl = fc.oneof(
  fc.constantFrom("http://127.0.0.1:9/a", "https://hooks.example.com/b", "http://[::1]:8080/", "http://localhost/x?y=1#z", "https://例え.jp/パス", "http://2130706433/"),
  fc.constantFrom("ftp://hooks.example.com/", "not a url", "https://u:p@hooks.example.com/", "http://", "javascript:alert(1)", `https://${"a".repeat(3000)}.com/`, "http://ex\u0000ample.com/", "file:///etc/passwd", "HTTP://HOOKS.EXAMPLE.COM", " http://a.b/ ", "http://a b/"),
  fc.webUrl(),
  text,
);
const eventTypes = often(fc.array(fc.constantFrom(...EVENT_TYPES, "scan.exploded", "Scan.Passed", "", "scan", "*", "a.b.c"), { maxLength: 4 }), junk);
const validEndpoint = fc.record(
  { url: fc.oneof(fc.constantFrom("http://127.0.0.1:9/a", "https://hooks.example.com/b", "http://[::1]:8080/"), fc.webUrl()), eventTypes: fc.uniqueArray(fc.constantFrom(...EVENT_TYPES), { maxLength: 3 }) },
  { requiredKeys: ["url"] },
) as fc.Arbitrary<Record<string, unknown>>;
const createEndpointBody = fc.oneof(
  { weight: 2, arbitrary: validEndpoint },
  { weight: 2, arbitrary: mutated(validEndpoint, ["url", "eventTypes", "enabled", "secret", "id"]) },
  { weight: 3, arbitrary: fc.tuple(fc.record({ url: often(webhookUrl, junk), eventTypes }, { requiredKeys: [] }), unknownKeys).map(([body, extra]) => ({ ...body, ...(extra ?? {}) })) },
);
const updateEndpointBody = fc
  .tuple(
    fc.record({ url: often(fc.oneof(webhookUrl, fc.constant(null)), junk), eventTypes, enabled: often(fc.boolean(), junk), updateMask: often(fc.constantFrom("url", "enabled,eventTypes", "event_types", "secret", "id", ""), junk) }, { requiredKeys: [] }),
    unknownKeys,
  )
  .map(([body, extra]) => ({ ...body, ...(extra ?? {}) }));

async function expectEndpointRows(tenant: string, model: Map<string, any>) {
  const rows = await sql<any>("select * from webhook_endpoints where tenant_id = ?", [tenant]);
  expect(rows.map((r) => r.id).sort()).toEqual([...model.keys()].sort());
  for (const row of rows) {
    const last = model.get(row.id);
    expect({ url: row.url, eventTypes: row.event_types, enabled: row.enabled, disabledReason: row.disabled_reason ?? "" }, row.id).toEqual({
      url: last.url,
      eventTypes: last.eventTypes,
      enabled: last.enabled,
      disabledReason: last.disabledReason,
    });
  }
}

describe("fuzzing the webhook endpoint RPCs", () => {
  it("random create, update, get, delete and list calls never produce a 5xx, and leave exactly the rows that answered 200", async () => {
    const tenant = uniqueTenant("fz-wh");
    const token = await tokenFor(tenant);
    const model = new Map<string, any>();
    const gone: string[] = [];
    const ids = () => [...model.keys(), ...gone];
    const action = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant("create" as const), body: createEndpointBody }) },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant("update" as const), id: pathId(ids, fc.uuid({ version: 7 })), body: updateEndpointBody }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("get" as const), id: pathId(ids, fc.uuid({ version: 7 })) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), id: pathId(ids, fc.uuid({ version: 7 })) }) },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("list" as const),
          query: fc.record({ pageSize: fc.oneof(fc.integer({ min: -2, max: 600 }), fc.constantFrom("x", "")), pageToken: fc.oneof(craftedToken("webhook-endpoints"), fc.string({ maxLength: 20 })) }, { requiredKeys: [] }),
        }),
      },
    );
    await fc.assert(
      fc.asyncProperty(action, async (a) => {
        if (a.kind === "create") {
          const res = await rest("POST", "/api/v1/webhook-endpoints", { token, body: a.body });
          expectClientOutcome(describeCall("POST", "/api/v1/webhook-endpoints", a.body), res, ["invalid_argument"]);
          if (res.status === 200) model.set(res.body.webhookEndpoint.id, res.body.webhookEndpoint);
        } else if (a.kind === "list") {
          const qs = new URLSearchParams(Object.entries(a.query).map(([k, v]) => [k, String(v)])).toString();
          const res = await rest("GET", `/api/v1/webhook-endpoints?${qs}`, { token });
          expectClientOutcome(`GET /api/v1/webhook-endpoints?${qs}`, res, ["invalid_argument"]);
          if (res.status === 200) for (const e of res.body.webhookEndpoints) expect(model.get(e.id)).toEqual(e);
        } else {
          const path = `/api/v1/webhook-endpoints/${a.id}`;
          const method = a.kind === "update" ? "PATCH" : a.kind === "get" ? "GET" : "DELETE";
          const body = a.kind === "update" ? a.body : undefined;
          const res = await rest(method, path, { token, body });
          expectClientOutcome(describeCall(method, path, body), res, ["invalid_argument", "not_found"]);
          if (res.status !== 200) return;
          if (a.kind === "update") model.set(a.id, res.body.webhookEndpoint);
          if (a.kind === "get") expect(res.body.webhookEndpoint).toEqual(model.get(a.id));
          if (a.kind === "delete") {
            model.delete(a.id);
            gone.push(a.id);
          }
        }
      }),
      { numRuns: 150 },
    );
    expect(model.size + gone.length, "some creates succeeded").toBeGreaterThan(0);
    await expectEndpointRows(tenant, model);
  });
});

// ---------------------------------------------------------------------------------------------
// gRPC: typed random messages

const typedText = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "binary", maxLength: 20 }), edgeString);
const int32 = fc.oneof(fc.integer({ min: -2147483648, max: 2147483647 }), fc.constantFrom(0, 1, -1, 2147483647, -2147483648));
const protoValue = fc.jsonValue({ maxDepth: 2 }).map((v) => fromJson(ValueSchema, v as JsonValue));
const allowedGrpc = (codes: Code[]) => async (call: Promise<unknown>) => {
  try {
    return { ok: true as const, value: (await call) as any };
  } catch (error) {
    const e = ConnectError.from(error);
    expect(codes, `${Code[e.code]}: ${e.rawMessage.slice(0, 300)}`).toContain(e.code);
    return { ok: false as const };
  }
};

describe("fuzzing over gRPC with typed random messages", () => {
  it("field definitions: creates and updates answer OK or a client code; the rows are those that answered OK", async () => {
    const tenant = uniqueTenant("fz-grpc");
    const { fields } = clientsFor("grpc", await tokenFor(tenant));
    const model = new Map<string, DefinitionModel>();
    const rule = fc.record(
      {
        name: typedText,
        priority: fc.double(),
        when: fc.record({ operator: fc.constantFrom("AND", "OR", "xor"), conditions: fc.array(fc.record({ field: fc.constantFrom("entity.name", "user.id", "", "__proto__"), operator: fc.constantFrom("equals", "in", "exists", "bogus"), value: protoValue }), { maxLength: 2 }) }),
        thenOutcome: fc.record({ required: fc.boolean(), defaultValue: protoValue }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    );
    const fieldsArb = fc.record(
      {
        fieldLabel: fc.oneof(fc.constant("Label"), typedText),
        description: typedText,
        isRequired: fc.boolean(),
        displayOrder: int32,
        defaultStrategy: fc.constantFrom(...STRATEGIES),
        defaultValue: typedText,
        computedFormula: formulaish.filter((f) => f.length <= 1000),
        defaultRules: fc.array(rule, { maxLength: 2 }),
        validation: fc.record({ min: fc.double(), max: fc.double(), minLength: int32, maxLength: int32, pattern, enum: fc.array(typedText, { maxLength: 3 }), minDate: dateText, maxDate: dateText }, { requiredKeys: [] }),
        uiConfig: fc.record({ placeholder: typedText, options: fc.array(fc.record({ label: typedText, value: fc.constantFrom("a", "b", "", "a") }), { maxLength: 3 }) }, { requiredKeys: [] }),
        isActive: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    const ids = () => [...model.keys()];
    const action = fc.oneof(
      fc.record({ kind: fc.constant("create" as const), entityType: fc.constantFrom("Customer", "Product", "bad"), fieldKey: fc.constantFrom(...FIELD_KEYS), fieldType: fc.constantFrom(...FIELD_TYPES), rest: fieldsArb }),
      fc.record({ kind: fc.constant("update" as const), id: fc.oneof(fc.nat().map((n) => ids()[n % Math.max(ids().length, 1)] ?? "none"), typedText), expectedVersion: fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }), fieldType: fc.option(fc.constantFrom(...FIELD_TYPES), { nil: undefined }), rest: fieldsArb }),
    );
    const outcome = allowedGrpc([Code.InvalidArgument, Code.AlreadyExists, Code.NotFound, Code.Aborted]);
    await fc.assert(
      fc.asyncProperty(action, async (a) => {
        if (a.kind === "create") {
          const res = await outcome(fields.createFieldDefinition({ entityType: a.entityType, fieldKey: a.fieldKey, fieldType: a.fieldType, ...a.rest }));
          if (res.ok) model.set(res.value.fieldDefinition.id, { last: res.value.fieldDefinition, deleted: false, writes: 1 });
        } else {
          const res = await outcome(fields.updateFieldDefinition({ id: a.id, expectedVersion: a.expectedVersion, fieldType: a.fieldType, ...a.rest }));
          if (res.ok) {
            const m = model.get(a.id)!;
            model.set(a.id, { last: res.value.fieldDefinition, deleted: false, writes: m.writes + 1 });
          }
        }
      }),
      { numRuns: 80 },
    );
    await expectDefinitionRows(tenant, model);
  });

  it("customers and webhook endpoints: typed random creates, updates and lists answer OK or a client code; the rows are those that answered OK", async () => {
    const { tenant, token } = await customerTenant("fz-grpc");
    const { customers } = clientsFor("grpc", token);
    const webhooks = createClient(WebhookService, transportFor("grpc", token));
    const customerModel = new Map<string, CustomerModel>();
    const endpointModel = new Map<string, any>();
    const struct = fc.dictionary(fc.oneof(fc.constantFrom(...CUSTOMER_KEYS), fc.string({ maxLength: 6 })), fc.oneof(customFieldValue, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 4 }).map((d) => JSON.parse(JSON.stringify(d)));
    const known = (m: Map<string, unknown>) => fc.oneof(fc.nat().map((n) => [...m.keys()][n % Math.max(m.size, 1)] ?? "none"), fc.uuid(), typedText);
    const action = fc.oneof(
      fc.record({ kind: fc.constant("createCustomer" as const), name: typedText, email, customFields: fc.option(struct, { nil: undefined }) }),
      fc.record({ kind: fc.constant("updateCustomer" as const), id: known(customerModel), expectedVersion: fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }), name: fc.option(typedText, { nil: undefined }), customFields: fc.option(struct, { nil: undefined }) }),
      fc.record({ kind: fc.constant("listCustomers" as const), name: fc.string({ maxLength: 10 }), pageSize: int32, pageToken: fc.oneof(craftedToken(LIST_FILTER_KEY), fc.string({ maxLength: 20 })), filters: fc.dictionary(filterKeyArb, filterValue, { maxKeys: 3 }) }),
      fc.record({ kind: fc.constant("createEndpoint" as const), url: webhookUrl, eventTypes: fc.array(fc.constantFrom(...EVENT_TYPES, "scan.exploded", ""), { maxLength: 3 }) }),
      fc.record({ kind: fc.constant("updateEndpoint" as const), id: known(endpointModel), url: fc.option(webhookUrl, { nil: undefined }), enabled: fc.option(fc.boolean(), { nil: undefined }), eventTypes: fc.array(fc.constantFrom(...EVENT_TYPES, "x.y"), { maxLength: 2 }) }),
    );
    const outcome = allowedGrpc([Code.InvalidArgument, Code.NotFound, Code.Aborted]);
    await fc.assert(
      fc.asyncProperty(action, async (a) => {
        if (a.kind === "createCustomer") {
          const res = await outcome(customers.createCustomer({ name: a.name, email: a.email, customFields: a.customFields }));
          if (res.ok) customerModel.set(res.value.customer.id, { last: res.value.customer });
        } else if (a.kind === "updateCustomer") {
          const res = await outcome(customers.updateCustomer({ id: a.id, expectedVersion: a.expectedVersion, name: a.name, customFields: a.customFields }));
          if (res.ok) customerModel.set(a.id, { last: res.value.customer });
        } else if (a.kind === "listCustomers") {
          const res = await outcome(customers.listCustomers({ name: a.name, pageSize: a.pageSize, pageToken: a.pageToken, filters: a.filters }));
          if (res.ok) for (const c of res.value.customers) expect(customerModel.has(c.id)).toBe(true);
        } else if (a.kind === "createEndpoint") {
          const res = await outcome(webhooks.createWebhookEndpoint({ url: a.url, eventTypes: a.eventTypes }));
          if (res.ok) endpointModel.set(res.value.webhookEndpoint.id, res.value.webhookEndpoint);
        } else {
          const res = await outcome(webhooks.updateWebhookEndpoint({ id: a.id, url: a.url, enabled: a.enabled, eventTypes: a.eventTypes }));
          if (res.ok) endpointModel.set(a.id, res.value.webhookEndpoint);
        }
      }),
      { numRuns: 100 },
    );
    // The gRPC answers carry Timestamps and typed fields; compare what the tables hold with them.
    const rows = await sql<any>("select id, name, email, custom_fields, version from customers where tenant_id = ?", [tenant]);
    expect(rows.map((r) => r.id).sort()).toEqual([...customerModel.keys()].sort());
    for (const row of rows) {
      const { last } = customerModel.get(row.id)!;
      expect({ name: row.name, email: row.email, customFields: row.custom_fields, version: row.version }).toEqual({ name: last.name, email: last.email, customFields: last.customFields, version: last.version });
    }
    const endpoints = await sql<any>("select id, url, event_types, enabled from webhook_endpoints where tenant_id = ?", [tenant]);
    expect(endpoints.map((r) => r.id).sort()).toEqual([...endpointModel.keys()].sort());
    for (const row of endpoints) {
      const last = endpointModel.get(row.id);
      expect({ url: row.url, eventTypes: row.event_types, enabled: row.enabled }).toEqual({ url: last.url, eventTypes: last.eventTypes, enabled: last.enabled });
    }
  });
});
