/** Random calls of the custom field definition RPCs: valid, mutated and random bodies, ids in and out of format. */
import fc from "fast-check";
import { expect } from "vitest";
import { dateText, describeCall, doubleish, edgeString, expectClientOutcome, int32ish, junk, label, mutated, often, pathId, text, unknownKeys, type RestCaller } from "./building-blocks.js";
import { HitRates } from "./hit-rates.js";

export const FIELD_KEYS = ["alpha", "beta", "gamma", "score", "tier", "since", "a_b", "x", "a".repeat(64), "a".repeat(65), "__proto__", "constructor", "Alpha", "a-b", ""];
const OK_KEYS = FIELD_KEYS.slice(0, 9);
/** Keys in the contract's pattern (`^[a-z_]{1,64}$`), fresh ones mostly, so creates rarely collide. */
export const validFieldKey = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...OK_KEYS) }, { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z_]{2,20}$/) });
/** Formulas that compile, over the fixed keys and the context. */
const validFormula = fc.constantFrom("score * 2", "round(score / 3)", "abs(alpha - beta)", "max(score, 1) + 1", "entity.name", "uppercase(string(tier))", "score > 10 ? 'high' : 'low'");
/** Marks an expected version to be replaced by the definition's current one when the call is made. */
export const CURRENT_VERSION = "current";
export const FIELD_TYPES = ["string", "number", "boolean", "date", "select", "json", "computed", "STRING", "NUMBER", "SELECT", "COMPUTED", "Select", "rule_based", "text", ""];
export const STRATEGIES = ["static", "rule-based", "computed", "STATIC", "RULE_BASED", "COMPUTED", "Rule-Based", "dynamic", ""];

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
export const formulaish = fc.oneof(
  formula,
  text,
  fc.constantFrom("", "((((", "a".repeat(1001), "x = 1", "f(x) = x", "cos.constructor('return process')()", "{a: 1}", "score score", "1 +", "zeros(1e9)", "range(1, 1e12)", "2^2^2^2^2^2"),
);
/** Regular expressions: fine, catastrophic, unsupported by RE2, broken, huge. */
export const pattern = fc.oneof(
  fc.constantFrom("^[a-z]+$", "(a+)+$", "(a|a)*b", "(?=x)", "(?<!x)y", "(a)\\1", "[", "\\", "a{1000000}", ".*".repeat(200), "\\p{L}+", "(?<n>a)\\k<n>", "", "x".repeat(5000), "(?i)abc", "^\\d{3}-\\d{4}$"),
  fc.string({ maxLength: 20 }),
);
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

/** Definitions the service should accept (mostly): each strategy and type with sensible settings. */
export const validDefinition = fc.oneof(
  fc.record(
    {
      entityType: fc.constantFrom("Customer", "Product"),
      fieldKey: validFieldKey,
      fieldLabel: label,
      fieldType: fc.constantFrom("string", "number", "boolean", "date", "json", "STRING"),
      description: fc.string({ maxLength: 50 }),
      isRequired: fc.boolean(),
      displayOrder: fc.integer({ min: -1000, max: 1000 }),
      isActive: fc.boolean(),
      // Indexed fields count against the tenant's cap: rarely, so creates do not run into it.
      indexed: fc.constantFrom(false, false, false, false, false, true),
    },
    { requiredKeys: ["entityType", "fieldKey", "fieldLabel", "fieldType"] },
  ),
  fc.record({
    entityType: fc.constant("Customer"),
    fieldKey: validFieldKey,
    fieldLabel: label,
    fieldType: fc.constant("select"),
    uiConfig: fc.constant({ options: [{ label: "Gold", value: "gold" }, { label: "Silver", value: "silver" }] }),
    defaultValue: fc.constantFrom("gold", "silver"),
  }),
  fc.record({
    entityType: fc.constant("Customer"),
    fieldKey: validFieldKey,
    fieldLabel: label,
    fieldType: fc.constant("computed"),
    computedFormula: fc.oneof({ weight: 3, arbitrary: validFormula }, { weight: 1, arbitrary: formula }, { weight: 1, arbitrary: fc.constant("concat(entity.name, '!')") }),
  }),
  fc.record({
    entityType: fc.constant("Customer"),
    fieldKey: validFieldKey,
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
  { weight: 8, arbitrary: validDefinition as fc.Arbitrary<Record<string, unknown>> },
  { weight: 3, arbitrary: mutated(validDefinition as fc.Arbitrary<Record<string, unknown>>, DEFINITION_KEYS) },
  { weight: 2, arbitrary: randomDefinitionBody },
);

export const validUpdate = fc.record(
  {
    fieldLabel: label,
    description: fc.oneof(fc.string({ maxLength: 50 }), fc.constant(null)),
    isRequired: fc.boolean(),
    displayOrder: fc.integer({ min: -1000, max: 1000 }),
    isActive: fc.boolean(),
    expectedVersion: fc.oneof({ weight: 3, arbitrary: fc.constant<number | typeof CURRENT_VERSION>(CURRENT_VERSION) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) }),
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
  { weight: 8, arbitrary: validUpdate as fc.Arbitrary<Record<string, unknown>> },
  { weight: 2, arbitrary: mutated(validUpdate as fc.Arbitrary<Record<string, unknown>>, [...DEFINITION_KEYS, "expectedVersion", "updateMask"]) },
  { weight: 3, arbitrary: randomUpdateDefinitionBody },
);

export interface DefinitionModel {
  /** The last 200 answer for this definition. */
  last: any;
  deleted: boolean;
  /** Successful writes: create, updates, delete; each has exactly one audit row. */
  writes: number;
}

/**
 * Random create, update and delete calls over the JSON API. Every answer is a 200 or a client
 * error with an expected code; an update that answers 200 is one version later. Answers the
 * model of what answered 200, for the caller to compare with what was stored.
 */
export async function fuzzDefinitionCalls(rest: RestCaller, token: string, numRuns: number, hits = new HitRates()): Promise<Map<string, DefinitionModel>> {
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
        expectClientOutcome(describeCall("POST", "/api/v1/custom-fields", a.body), res, ["invalid_argument", "already_exists", "failed_precondition"]);
        hits.tally("create", res.status === 200);
        if (res.status === 200) model.set(res.body.fieldDefinition.id, { last: res.body.fieldDefinition, deleted: false, writes: 1 });
      } else if (a.kind === "update") {
        const path = `/api/v1/custom-fields/${a.id}`;
        const body = a.body.expectedVersion === CURRENT_VERSION ? { ...a.body, expectedVersion: model.get(a.id)?.last.version ?? 1 } : a.body;
        const res = await rest("PATCH", path, { token, body });
        expectClientOutcome(describeCall("PATCH", path, body), res, ["invalid_argument", "not_found", "aborted", "failed_precondition"]);
        hits.tally("update", res.status === 200);
        if (res.status === 200) {
          const m = model.get(a.id)!;
          expect(res.body.fieldDefinition.version).toBe(m.last.version + 1);
          model.set(a.id, { last: res.body.fieldDefinition, deleted: false, writes: m.writes + 1 });
        }
      } else {
        const path = `/api/v1/custom-fields/${a.id}`;
        const res = await rest("DELETE", path, { token });
        expectClientOutcome(describeCall("DELETE", path), res, ["invalid_argument", "not_found"]);
        hits.tally("delete", res.status === 200);
        if (res.status === 200) {
          const m = model.get(a.id)!;
          model.set(a.id, { ...m, deleted: true, writes: m.writes + 1 });
        }
      }
    }),
    { numRuns },
  );
  return model;
}
