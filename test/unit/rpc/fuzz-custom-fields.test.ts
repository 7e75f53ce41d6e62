/**
 * Request fuzzing of the custom field RPCs in memory, where no database is needed: the integration
 * calls (resolve, validate, parse filters), which write nothing, and the definition calls against
 * the in-memory store. Every answer is a 200 or a client error, never a 5xx. The definition calls
 * against PostgreSQL are fuzzed in test/integration/fuzz-custom-fields.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeCall, expectClientOutcome, junk, often } from "../../support/fuzz/building-blocks.js";
import { HitRates } from "../../support/fuzz/hit-rates.js";
import { fuzzDefinitionCalls } from "../../support/fuzz/custom-field-calls.js";
import { inMemoryApi } from "./in-memory-api.js";

describe("fuzzing the custom field RPCs in memory", () => {
  it("random integration calls (resolve, validate, parse filters) never produce a 5xx", async () => {
    const api = inMemoryApi();
    const token = await api.token("fz-cf");
    for (const body of [
      { entityType: "Customer", fieldKey: "score", fieldLabel: "S", fieldType: "number", validation: { min: 0, max: 100 } },
      { entityType: "Customer", fieldKey: "tier", fieldLabel: "T", fieldType: "select", uiConfig: { options: [{ label: "G", value: "gold" }] } },
      { entityType: "Customer", fieldKey: "twice", fieldLabel: "2", fieldType: "computed", computedFormula: "score * 2" },
      { entityType: "Customer", fieldKey: "since", fieldLabel: "D", fieldType: "date" },
    ]) {
      expect((await api.rest("POST", "/api/v1/custom-fields", { token, body })).status).toBe(200);
    }
    const values = fc.dictionary(fc.constantFrom("score", "tier", "twice", "since", "unknown", "__proto__", "constructor"), junk, { maxKeys: 4 });
    const call = fc.oneof(
      fc.record({ path: fc.constantFrom("Customer:resolve", "Customer:validate", "Product:resolve", "bad type:validate"), body: fc.record({ customFields: often(values, junk), context: often(fc.dictionary(fc.constantFrom("entity", "user", "organization", "customer", "__proto__"), junk, { maxKeys: 3 }), junk) }, { requiredKeys: [] }) }),
      fc.record({ path: fc.constantFrom("Customer:parse-filters"), body: fc.record({ query: often(fc.dictionary(fc.string({ maxLength: 20 }).map((s) => `${s}__${s.slice(0, 3)}`), fc.string({ maxLength: 20 }), { maxKeys: 4 }), junk) }, { requiredKeys: [] }) }),
    );
    await fc.assert(
      fc.asyncProperty(call, async ({ path, body }) => {
        const url = `/api/v1/custom-fields/${encodeURIComponent(path.split(":")[0]!)}:${path.split(":")[1]}`;
        const res = await api.rest("POST", url, { token, body });
        expectClientOutcome(describeCall("POST", url, body), res, ["invalid_argument"]);
      }),
      { numRuns: 300 },
    );
  });

  it("random create, update and delete calls never produce a 5xx, and leave exactly the definitions that answered 200", async () => {
    const api = inMemoryApi();
    const hits = new HitRates();
    const model = await fuzzDefinitionCalls(api.rest, await api.token("fz-cf"), 300, hits);
    expect(model.size, "some creates succeeded").toBeGreaterThan(0);
    hits.expectAtLeast("definitions in memory", { create: 1 / 3, update: 1 / 6 });
    expect([...api.fields.rows.keys()].sort()).toEqual([...model.keys()].sort());
    for (const [id, m] of model) {
      const stored = api.fields.rows.get(id)!;
      expect({ deleted: stored.deletedAt !== undefined, version: stored.version - (m.deleted ? 1 : 0), fieldLabel: stored.fieldLabel }, id).toEqual({
        deleted: m.deleted,
        version: m.last.version,
        fieldLabel: m.last.fieldLabel,
      });
      expect(api.fields.audits.filter((a) => a.definitionId === id), id).toHaveLength(m.writes);
    }
  });
});
