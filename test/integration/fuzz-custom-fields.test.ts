/**
 * Request fuzzing of the custom field definition RPCs against the real server and database: random
 * and boundary bodies over REST and typed random messages over gRPC answer a 200 or a client error,
 * never a 5xx, and afterwards the tenant's rows are exactly those whose calls answered 200, as they
 * answered them (no partial write), each with one audit row per write. The same calls without the
 * database, and the integration calls (resolve, validate, parse filters), are fuzzed in memory by
 * test/unit/rpc/fuzz-custom-fields.test.ts.
 */
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowedGrpc, dateText, int32, protoValue, typedText } from "../support/fuzz/building-blocks.js";
import { HitRates } from "../support/fuzz/hit-rates.js";
import { CURRENT_VERSION, FIELD_KEYS, FIELD_TYPES, STRATEGIES, formulaish, fuzzDefinitionCalls, pattern, validDefinition, validUpdate, type DefinitionModel } from "../support/fuzz/custom-field-calls.js";
import { clientsFor, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { sql } from "../support/stack-access.js";

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

/**
 * Every definition the API lists for `type`, page after page: a run can define more than a
 * default page (50) holds, and small pages make every run follow tokens across page boundaries.
 */
async function listedIds(token: string, type: string): Promise<string[]> {
  const ids: string[] = [];
  let pageToken = "";
  do {
    const page = await rest("GET", `/api/v1/custom-fields/${type}?pageSize=7&pageToken=${encodeURIComponent(pageToken)}`, { token });
    expect(page.status).toBe(200);
    ids.push(...page.body.fieldDefinitions.map((d: { id: string }) => d.id));
    pageToken = page.body.nextPageToken ?? "";
  } while (pageToken);
  return ids;
}

describe("fuzzing the custom field definition RPCs", () => {
  it("random create, update and delete calls never produce a 5xx, and leave exactly the rows that answered 200", async () => {
    const tenant = uniqueTenant("fz-cf");
    const token = await tokenFor(tenant);
    const hits = new HitRates();
    const model = await fuzzDefinitionCalls(rest, token, 250, hits);
    expect(model.size, "some creates succeeded").toBeGreaterThan(0);
    hits.expectAtLeast("definitions over REST", { create: 1 / 3, update: 1 / 6 });
    await expectDefinitionRows(tenant, model);
    // What the API lists, page after page, is what the model says is live and active.
    for (const type of new Set([...model.values()].map((m) => m.last.entityType))) {
      const live = [...model.entries()].filter(([, m]) => !m.deleted && m.last.isActive && m.last.entityType === type).map(([id]) => id);
      expect((await listedIds(token, type)).sort()).toEqual(live.sort());
    }
  });
});

/** A JSON API body as a gRPC message: rules carry `thenOutcome` (a message may not have a `then`), and null is absence. */
function asMessage(body: Record<string, unknown>): Record<string, unknown> {
  const message: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (value !== null) message[key] = value;
  const value = (v: unknown) => fromJson(ValueSchema, v as JsonValue);
  if (Array.isArray(message.defaultRules)) {
    message.defaultRules = message.defaultRules.map(({ then, when, ...rule }: any) => ({
      ...rule,
      when: { ...when, conditions: when.conditions.map((c: any) => ({ ...c, value: value(c.value) })) },
      thenOutcome: { ...then, defaultValue: value(then.defaultValue) },
    }));
  }
  return message;
}

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
    const known = fc.nat().map((n) => ids()[n % Math.max(ids().length, 1)] ?? "none");
    // Mostly messages the contract accepts (the REST fuzzer's valid definitions, typed), so the
    // final comparison holds many rows; one in four is typed junk that must be refused cleanly.
    const validCreate = validDefinition.map((body) => ({ kind: "create" as const, ...asMessage(body) }));
    const junkCreate = fc.record({ kind: fc.constant("create" as const), entityType: fc.constantFrom("Customer", "Product", "bad"), fieldKey: fc.constantFrom(...FIELD_KEYS), fieldType: fc.constantFrom(...FIELD_TYPES), rest: fieldsArb }).map(({ rest: more, ...a }) => ({ ...a, ...more }));
    const validChange = fc.record({ id: known, body: validUpdate }).map(({ id, body }) => ({ kind: "update" as const, id, ...asMessage(body) }));
    const junkChange = fc.record({ kind: fc.constant("update" as const), id: fc.oneof(known, typedText), expectedVersion: fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }), fieldType: fc.option(fc.constantFrom(...FIELD_TYPES), { nil: undefined }), rest: fieldsArb }).map(({ rest: more, ...a }) => ({ ...a, ...more }));
    const action = fc.oneof({ weight: 3, arbitrary: validCreate }, { weight: 1, arbitrary: junkCreate }, { weight: 3, arbitrary: validChange }, { weight: 1, arbitrary: junkChange });
    const outcome = allowedGrpc([Code.InvalidArgument, Code.AlreadyExists, Code.NotFound, Code.Aborted, Code.FailedPrecondition]);
    const hits = new HitRates();
    await fc.assert(
      fc.asyncProperty(action, async ({ kind, ...message }: { kind: "create" | "update"; [key: string]: any }) => {
        if (kind === "create") {
          const res = await outcome(fields.createFieldDefinition(message as any));
          hits.tally("create", res.ok);
          if (res.ok) model.set(res.value.fieldDefinition.id, { last: res.value.fieldDefinition, deleted: false, writes: 1 });
        } else {
          const expectedVersion = message.expectedVersion === CURRENT_VERSION ? (model.get(message.id)?.last.version ?? 1) : message.expectedVersion;
          const res = await outcome(fields.updateFieldDefinition({ ...message, expectedVersion } as any));
          hits.tally("update", res.ok);
          if (res.ok) {
            const m = model.get(message.id)!;
            model.set(message.id, { last: res.value.fieldDefinition, deleted: false, writes: m.writes + 1 });
          }
        }
      }),
      { numRuns: 200 },
    );
    hits.expectAtLeast("definitions over gRPC", { create: 1 / 3, update: 1 / 6 });
    await expectDefinitionRows(tenant, model);
  });
});
