/** Random calls of the customer RPCs and list queries, over one set of custom field definitions. */
import fc from "fast-check";
import { expect } from "vitest";
import { craftedToken, describeCall, expectClientOutcome, jsonScalar, junk, label, mutated, often, pathId, text, unknownKeys, type RestCaller } from "./building-blocks.js";
import { HitRates } from "./hit-rates.js";

export const CUSTOMER_DEFINITIONS = [
  { fieldKey: "tier", fieldLabel: "Tier", fieldType: "select", defaultValue: "bronze", uiConfig: { options: ["gold", "silver", "bronze"].map((v) => ({ label: v, value: v })) } },
  { fieldKey: "region", fieldLabel: "Region", fieldType: "string", defaultStrategy: "rule-based", defaultRules: [{ name: "de", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.email", operator: "endsWith", value: ".de" }] }, then: { defaultValue: "EU" } }] },
  { fieldKey: "score", fieldLabel: "Score", fieldType: "number", validation: { min: 0, max: 100 }, indexed: true },
  { fieldKey: "double_score", fieldLabel: "Double", fieldType: "computed", computedFormula: "score * 2" },
  { fieldKey: "since", fieldLabel: "Since", fieldType: "date", indexed: true },
  { fieldKey: "vip", fieldLabel: "VIP", fieldType: "boolean" },
  { fieldKey: "nickname", fieldLabel: "Nickname", fieldType: "string", validation: { maxLength: 50, pattern: "^[a-z ]*$" } },
  { fieldKey: "meta", fieldLabel: "Meta", fieldType: "json" },
];
export const CUSTOMER_KEYS = CUSTOMER_DEFINITIONS.map((d) => d.fieldKey);

export const customFieldValue = fc.oneof(
  fc.constantFrom("gold", "silver", "platinum", "EU", 0, 50, 100, 101, -1, "42", "2024-01-01", "2024-02-30", true, "true", "yes", "abc", "a b"),
  jsonScalar,
  junk,
);
const customFields = often(fc.dictionary(fc.oneof(fc.constantFrom(...CUSTOMER_KEYS), fc.constantFrom("unknown", "__proto__", "constructor", "", "a.b"), fc.string({ maxLength: 8 })), customFieldValue, { maxKeys: 5 }), junk);
export const email = fc.oneof(fc.emailAddress(), fc.constantFrom("a@b.de", "anna@example.com", "not-an-email", "@", "a@", "a@b", `${"x".repeat(320)}@example.com`, "ü@exämple.de", "a@b.c\u0000"), text);
export const validCustomFields = fc.record(
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
export const validCustomer = fc.record(
  { name: fc.oneof(fc.constantFrom("Anna", "Bob", "Ünal Çelik", "李雷"), label), email: fc.constantFrom("anna@example.de", "bob@example.com", "x.y+z@sub.example.org"), customFields: validCustomFields },
  { requiredKeys: ["name", "email"] },
);
const CUSTOMER_BODY_KEYS = ["name", "email", "customFields", "expectedVersion", "updateMask", "id", "version"];
const randomCustomerBody = fc
  .tuple(fc.record({ name: often(fc.oneof(fc.constantFrom("Anna", "Bob"), text), junk), email: often(email, junk), customFields }, { requiredKeys: [] }), unknownKeys)
  .map(([body, extra]) => ({ ...body, ...(extra ?? {}) }));
const createCustomerBody = fc.oneof(
  { weight: 6, arbitrary: validCustomer as fc.Arbitrary<Record<string, unknown>> },
  { weight: 3, arbitrary: mutated(validCustomer as fc.Arbitrary<Record<string, unknown>>, CUSTOMER_BODY_KEYS) },
  { weight: 1, arbitrary: validCustomer.chain((c) => mutated(fc.constant(c.customFields ?? {}), [...CUSTOMER_KEYS, "unknown"]).map((customFields) => ({ ...c, customFields }))) },
  { weight: 2, arbitrary: randomCustomerBody },
);
/** Marks an expected version to be replaced by the customer's current one when the call is made. */
const CURRENT_VERSION = "current";
const validCustomerUpdate = fc.record(
  {
    name: validCustomer.map((c) => c.name),
    email: validCustomer.map((c) => c.email),
    customFields: validCustomFields,
    expectedVersion: fc.oneof({ weight: 3, arbitrary: fc.constant<number | typeof CURRENT_VERSION>(CURRENT_VERSION) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) }),
  },
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
  { weight: 8, arbitrary: validCustomerUpdate as fc.Arbitrary<Record<string, unknown>> },
  { weight: 2, arbitrary: mutated(validCustomerUpdate as fc.Arbitrary<Record<string, unknown>>, CUSTOMER_BODY_KEYS) },
  { weight: 2, arbitrary: randomUpdateCustomerBody },
);

const FILTER_OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "icontains", "startswith", "endswith", "isnull", "between"];
export const filterValue = fc.oneof(
  fc.constantFrom("1", "0", "-1", "50,60", "1,2,3", "true", "false", "null", "2024-01-01", "2024-01-01,2024-12-31", "gold", "gold,silver", "%", "_", "\\", "'", "a'b", "1e308", "NaN", "Infinity", "", ",", ",,,"),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 10 }),
  fc.constantFrom("9".repeat(400), "x".repeat(1001), Array.from({ length: 150 }, (_, i) => String(i)).join(",")),
);
export const filterKeyArb = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...CUSTOMER_KEYS), fc.constantFrom(...FILTER_OPERATORS)).map(([k, o]) => `${k}__${o}`) },
  { weight: 1, arbitrary: fc.constantFrom(...CUSTOMER_KEYS) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...CUSTOMER_KEYS, "unknown", "__proto__", "meta.a", ""), fc.oneof(fc.constantFrom("like", "EQ", "", "in__in", "regex"), fc.string({ maxLength: 6 }))).map(([k, o]) => `${k}__${o}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).filter((s) => s.length > 0) },
);
/** Filters that apply: an operator the field's type takes and a value of that type (lists for in/nin/between). */
const TYPED_FILTERS: Record<string, { operators: string[]; value: fc.Arbitrary<string> }> = {
  tier: { operators: ["eq", "ne", "in", "nin", "icontains", "startswith", "isnull"], value: fc.constantFrom("gold", "silver", "bronze") },
  region: { operators: ["eq", "ne", "contains", "icontains", "endswith", "isnull"], value: fc.constantFrom("EU", "US", "eu") },
  nickname: { operators: ["eq", "contains", "startswith", "isnull"], value: fc.constantFrom("an", "bob", "x y") },
  score: { operators: ["eq", "ne", "gt", "gte", "lt", "lte", "in", "between", "isnull"], value: fc.integer({ min: 0, max: 100 }).map(String) },
  double_score: { operators: ["eq", "gt", "lte", "between"], value: fc.integer({ min: 0, max: 200 }).map(String) },
  since: { operators: ["eq", "gt", "lt", "between", "isnull"], value: fc.constantFrom("2024-01-01", "2023-06-30", "1999-12-31") },
  vip: { operators: ["eq", "ne", "isnull"], value: fc.constantFrom("true", "false") },
  meta: { operators: ["isnull"], value: fc.constantFrom("true", "false") },
};
const typedFilter = fc.constantFrom(...Object.keys(TYPED_FILTERS)).chain((key) =>
  fc.constantFrom(...TYPED_FILTERS[key]!.operators).chain((op) => {
    const one = TYPED_FILTERS[key]!.value;
    const ordered = (a: string, b: string) => (key === "since" ? a.localeCompare(b) : Number(a) - Number(b));
    const value = op === "isnull" ? fc.constantFrom("true", "false") : op === "between" ? fc.tuple(one, one).map((pair) => pair.sort(ordered).join(",")) : op === "in" || op === "nin" ? fc.array(one, { minLength: 1, maxLength: 3 }).map((v) => v.join(",")) : one;
    return value.map((v) => [`${key}__${op}`, v] as const);
  }),
);
const typedFilters = fc.array(typedFilter, { maxLength: 2 }).map((pairs) => Object.fromEntries(pairs) as Record<string, string>);
/** Filters shaped by the definitions mostly (so lists answer rows), random keys and values sometimes. */
export const listFilters = fc.oneof(
  { weight: 4, arbitrary: typedFilters },
  { weight: 1, arbitrary: fc.dictionary(filterKeyArb, filterValue, { maxKeys: 3 }) },
);
/** Page sizes the contract accepts mostly (0 and up; above 500 is read as 500), any int32 sometimes (negatives are refused). */
export const listPageSize = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 1000 }) }, { weight: 1, arbitrary: fc.integer({ min: -2147483648, max: 2147483647 }) });
export const LIST_FILTER_KEY = JSON.stringify([null, null, []]);
const junkListQuery = fc.record(
  {
    filters: fc.dictionary(filterKeyArb, filterValue, { maxKeys: 4 }),
    name: fc.oneof(fc.constantFrom("Anna", "Bob"), text.filter((s) => s.length < 300)),
    email: email.filter((s) => s.length < 400),
    pageSize: fc.oneof(fc.integer({ min: -2, max: 600 }), fc.constantFrom("abc", "1.5", "", "99999999999")),
    pageToken: fc.oneof(craftedToken(LIST_FILTER_KEY), fc.string({ maxLength: 30 }), fc.constantFrom("", "e30", "bnVsbA", "x".repeat(600))),
  },
  { requiredKeys: ["filters"] },
);
/** A query the contract accepts: filters that apply, a page size of 0 or more (above 500 is read as 500), maybe a name; no page token. */
const validListQuery = fc.record(
  { filters: listFilters, name: fc.constantFrom("Anna", "Bob", "Cid"), pageSize: fc.integer({ min: 0, max: 1000 }) },
  { requiredKeys: ["filters", "pageSize"] },
);
/** List queries: three in four shaped by the contract (so most answer, many with rows), one in four junk. */
export const listQuery = fc
  .oneof({ weight: 3, arbitrary: validListQuery as fc.Arbitrary<{ filters: Record<string, string> } & Record<string, unknown>> }, { weight: 1, arbitrary: junkListQuery })
  .map(({ filters, ...standard }) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(filters)) qs.set(k, v);
    for (const [k, v] of Object.entries(standard)) qs.set(k, String(v));
    return qs.toString();
  });

export interface CustomerModel {
  last: any;
}

/**
 * Random create, update and get calls over the JSON API. Every answer is a 200 or a client error
 * with an expected code; an update that answers 200 is one version later, a get answers the last
 * 200. Answers the model of what answered 200.
 */
export async function fuzzCustomerCalls(rest: RestCaller, token: string, numRuns: number, hits = new HitRates()): Promise<Map<string, CustomerModel>> {
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
        hits.tally("create", res.status === 200);
        if (res.status === 200) model.set(res.body.customer.id, { last: res.body.customer });
      } else if (a.kind === "update") {
        const path = `/api/v1/customers/${a.id}`;
        const body = a.body.expectedVersion === CURRENT_VERSION ? { ...a.body, expectedVersion: model.get(a.id)?.last.version ?? 1 } : a.body;
        const res = await rest("PATCH", path, { token, body });
        expectClientOutcome(describeCall("PATCH", path, body), res, ["invalid_argument", "not_found", "aborted"]);
        hits.tally("update", res.status === 200);
        if (res.status === 200) {
          expect(res.body.customer.version).toBe(model.get(a.id)!.last.version + 1);
          model.set(a.id, { last: res.body.customer });
        }
      } else {
        const path = `/api/v1/customers/${a.id}`;
        const res = await rest("GET", path, { token });
        expectClientOutcome(describeCall("GET", path), res, ["invalid_argument", "not_found"]);
        hits.tally("get", res.status === 200);
        if (res.status === 200) expect(res.body.customer).toEqual(model.get(a.id)!.last);
      }
    }),
    { numRuns },
  );
  return model;
}
