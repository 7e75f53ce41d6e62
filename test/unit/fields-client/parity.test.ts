/**
 * Property: the offline client answers exactly what the server answers. Random definitions are
 * created over RPC on the in-memory API; the server resolves random entities with
 * ResolveValuesForCreate (and ValidateValuesForUpdate), and a fields client synced over the same
 * transport evaluates them offline (its transport failing). Both must give the same values, or
 * refuse with the same code, reason and violations. The user's claims and the tenant's
 * organization profile vary too, since both feed rules and formulas.
 */
import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CreateFieldDefinitionRequestSchema, CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { OrganizationService } from "@files-and-fields/client/gen/customfields/v1/organization_service_pb.js";
import { BadRequestSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { AppError } from "../../../src/domain/errors.js";
import { toConnectError } from "../../../src/rpc/errors.js";
import { createFieldsClient, memoryStore } from "@files-and-fields/client/fields-client";
import { reasonOf } from "../../support/errors.js";
import { inMemoryApi } from "../rpc/in-memory-api.js";
import { switchable } from "./switchable-transport.js";

// The in-memory API's clock: `timestamp` and today() must be the same on both sides.
const SERVER_NOW = new Date("2026-03-01T12:00:00Z");

const KEYS = ["a", "b", "c", "d"] as const;
const TYPES = ["string", "number", "boolean", "date", "select", "json", "computed"] as const;

const literal = fc.constantFrom<unknown>("x", "gold", "silver", "DE", "admin", "accrual", 1, 5, 12, -3.5, true, false, "2024-01-05", null);
const conditionField = fc.constantFrom(
  "entity.country",
  "entity.amount",
  ...KEYS.map((k) => `entity.customFields.${k}`),
  "user.id",
  "user.role",
  "organization.accountingType",
  "organization.customFields.region",
);
const condition = fc.record({
  field: conditionField,
  operator: fc.constantFrom("equals", "notEquals", "greaterThan", "lessThan", "in", "contains", "exists", "notExists"),
  value: literal,
}).map((c) => (c.operator === "in" ? { ...c, value: [c.value, "DE"] } : c.operator.endsWith("xists") ? { field: c.field, operator: c.operator } : c));
const validation = fc.record(
  {
    min: fc.integer({ min: -5, max: 5 }),
    max: fc.integer({ min: 0, max: 20 }),
    minLength: fc.integer({ min: 0, max: 3 }),
    maxLength: fc.integer({ min: 1, max: 6 }),
    pattern: fc.constantFrom("^[a-z]+$", "\\d", "^g"),
  },
  { requiredKeys: [] },
);
const rule = fc.record({
  name: fc.constantFrom("r1", "r2"),
  priority: fc.integer({ min: 0, max: 3 }),
  when: fc.record({ operator: fc.constantFrom("AND", "OR"), conditions: fc.array(condition, { minLength: 1, maxLength: 2 }) }),
  then: fc.record({ required: fc.boolean(), defaultValue: literal, validation }, { requiredKeys: [] }),
  else: fc.option(fc.record({ required: fc.boolean(), defaultValue: literal }, { requiredKeys: [] }), { nil: undefined }),
});
const formula = fc.constantFrom("a * 2", "b + 1", "c", "round(a / 3)", "entity.amount * 3", "uppercase(b)", "a + b", "1 + 2", "organization.companyAbbreviation", "user.role");

const definition = fc.record({
  fieldKey: fc.constantFrom(...KEYS),
  fieldType: fc.constantFrom(...TYPES),
  isRequired: fc.boolean(),
  displayOrder: fc.integer({ min: 0, max: 3 }),
  strategy: fc.constantFrom("static", "rule-based", "computed"),
  defaultValue: fc.option(fc.constantFrom("x", "gold", "7", "-2", "true", "2024-01-05", '{"k":1}', "abcdefgh"), { nil: undefined }),
  computedFormula: formula,
  defaultRules: fc.array(rule, { maxLength: 2 }),
  validationRules: fc.array(rule, { maxLength: 1 }),
  validation,
  // One in six inactive: their keys are dropped, not refused.
  inactive: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
});

type Generated = typeof definition extends fc.Arbitrary<infer T> ? T : never;

/** The request in its JSON form, where a rule's values are plain JSON. */
function createRequest(d: Generated) {
  const computed = d.fieldType === "computed" || d.strategy === "computed";
  return {
    entityType: "Customer",
    fieldKey: d.fieldKey,
    fieldLabel: d.fieldKey.toUpperCase(),
    fieldType: d.fieldType,
    isRequired: d.isRequired,
    displayOrder: d.displayOrder,
    defaultStrategy: d.strategy,
    defaultValue: computed ? undefined : d.defaultValue,
    computedFormula: computed ? d.computedFormula : undefined,
    defaultRules: d.strategy === "rule-based" ? d.defaultRules : [],
    validation: d.fieldType === "select" ? {} : d.validation,
    validationRules: d.validationRules.map((r) => ({ ...r, then: { required: r.then.required, validation: r.then.validation } })),
    uiConfig: d.fieldType === "select" ? { options: [{ label: "Gold", value: "gold" }, { label: "Silver", value: "silver" }] } : undefined,
    isActive: !d.inactive,
  };
}

// Sometimes a stored organization profile (then the caller's `organization` key is ignored), sometimes none.
const organization = fc.option(
  fc.record({
    accountingType: fc.constantFrom("accrual", "cash"),
    companyAbbreviation: fc.constantFrom("ACME", "X"),
    customFields: fc.record({ region: fc.constantFrom("DE", "US") }),
  }),
  { nil: undefined },
);
const role = fc.option(fc.constantFrom("admin", "clerk"), { nil: undefined });

const entityValue = fc.oneof(literal, fc.jsonValue({ maxDepth: 1 }), fc.constantFrom("7", "", "ABC", 3, 0.5, "2025-12-31"));
const entity = fc.record({
  customFields: fc.dictionary(fc.constantFrom(...KEYS, "zzz"), entityValue, { maxKeys: 4 }),
  country: fc.constantFrom("DE", "US"),
  amount: fc.integer({ min: -10, max: 10 }),
});

/** JSON as both sides carry it (no -0, no undefined). */
const normalized = (value: unknown): JsonObject => JSON.parse(JSON.stringify(value)) as JsonObject;

type Outcome = { values: unknown } | { code: number; reason: string | undefined; violations: { field: string; description: string }[] };

/** Values, or the refusal as the API answers it: code, reason and BadRequest violations. */
function refusal(failure: ConnectError): Outcome {
  const violations = failure.findDetails(BadRequestSchema)[0]?.fieldViolations.map((v) => ({ field: v.field, description: v.description })) ?? [];
  return { code: failure.code, reason: reasonOf(failure), violations };
}

async function serverOutcome(call: Promise<{ customFields?: JsonObject }>): Promise<Outcome> {
  try {
    return { values: normalized((await call).customFields ?? {}) };
  } catch (error) {
    return refusal(ConnectError.from(error));
  }
}

/** The client throws the domain's AppError; the server's own mapping turns it into what the API would answer. */
async function clientOutcome(call: Promise<unknown>): Promise<Outcome> {
  try {
    return { values: normalized(await call) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return refusal(toConnectError(error));
  }
}

describe("property: the offline client resolves as the server does", () => {
  it("gives the server's values or the server's refusal, on random definitions and entities", async () => {
    const api = inMemoryApi();
    let tenants = 0;
    let created = 0;
    let resolved = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(definition, { minLength: 1, maxLength: 5 }), fc.array(entity, { minLength: 1, maxLength: 4 }), organization, role, async (defs, entities, org, userRole) => {
        const claims = userRole === undefined ? undefined : { role: userRole, name: "Alice" };
        const token = await api.token(`parity-${++tenants}`, { user: "alice", profile: claims });
        const server = api.client(CustomFieldsService, token);
        if (org) await api.client(OrganizationService, token).updateOrganizationProfile(org);
        for (const d of defs) {
          // The server refuses what its save-time rules refuse (cycles, bad formulas, clashes): the client never sees those.
          const request = fromJson(CreateFieldDefinitionRequestSchema, normalized(createRequest(d)));
          await server.createFieldDefinition(request).then(() => created++, () => undefined);
        }
        const transport = switchable(api.transport(token));
        const client = createFieldsClient({ transport, store: memoryStore(), user: { id: "alice", ...claims }, namespace: "t1", now: () => SERVER_NOW });
        await client.sync("Customer");
        await client.syncOrganization();
        transport.offline = true;
        for (const e of entities) {
          const values = normalized(e.customFields);
          const context = normalized({ entity: { country: e.country, amount: e.amount, customFields: values }, organization: { accountingType: "cash" } });
          const expected = await serverOutcome(server.resolveValuesForCreate({ entityType: "Customer", customFields: values, context }));
          const actual = await clientOutcome(client.resolveForCreate("Customer", values, context));
          expect(actual).toEqual(expected);
          if ("values" in expected) resolved++;
          else refused++;
          const expectedUpdate = await serverOutcome(server.validateValuesForUpdate({ entityType: "Customer", customFields: values, context }));
          expect(await clientOutcome(client.validateForUpdate("Customer", values, context))).toEqual(expectedUpdate);
        }
        expect(transport.calls).toBe(2);
      }),
      { numRuns: 100 },
    );
    // The generator must reach the interesting part: definitions the server accepted.
    // About 110, 50 and 200 in practice; the bounds leave room for the seed.
    expect(created).toBeGreaterThan(50);
    expect(resolved).toBeGreaterThan(15);
    expect(refused).toBeGreaterThan(50);
  }, 120_000); // many RPCs per run on a shared machine: a property test's budget, not a timing bound
});
