/**
 * Request fuzzing of the customer create, update and get calls in memory: random and boundary
 * bodies answer a 200 or a client error, never a 5xx, and the store holds exactly what answered
 * 200. List filters compile to SQL and are fuzzed in test/integration/fuzz-customers.test.ts.
 */
import { describe, expect, it } from "vitest";
import { CUSTOMER_DEFINITIONS, fuzzCustomerCalls } from "../../support/fuzz/customer-calls.js";
import { HitRates } from "../../support/fuzz/hit-rates.js";
import { inMemoryApi } from "./in-memory-api.js";

describe("fuzzing the customer RPCs in memory", () => {
  it("random create, update and get calls never produce a 5xx, and leave exactly the customers that answered 200", async () => {
    const api = inMemoryApi();
    const token = await api.token("fz-cu");
    for (const definition of CUSTOMER_DEFINITIONS) {
      const res = await api.rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", ...definition } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const hits = new HitRates();
    const model = await fuzzCustomerCalls(api.rest, token, 300, hits);
    expect(model.size, "some creates succeeded").toBeGreaterThan(0);
    hits.expectAtLeast("customers in memory", { create: 1 / 3, update: 1 / 6, get: 1 / 3 });
    expect([...api.customers.rows.keys()].sort()).toEqual([...model.keys()].sort());
    for (const [id, { last }] of model) {
      const stored = api.customers.rows.get(id)!;
      expect({ name: stored.name, email: stored.email, customFields: stored.customFields, version: stored.version }, id).toEqual({
        name: last.name,
        email: last.email,
        customFields: last.customFields,
        version: last.version,
      });
    }
  });
});
