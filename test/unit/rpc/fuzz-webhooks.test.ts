/**
 * Request fuzzing of the webhook endpoint calls in memory: random and boundary bodies, ids and page
 * tokens answer a 200 or a client error, never a 5xx, and the store holds exactly the endpoints
 * that answered 200, as they answered. Against PostgreSQL: test/integration/fuzz-webhooks.test.ts.
 */
import { describe, expect, it } from "vitest";
import { fuzzEndpointCalls } from "../../support/fuzz/webhook-calls.js";
import { HitRates } from "../../support/fuzz/hit-rates.js";
import { inMemoryApi } from "./in-memory-api.js";

describe("fuzzing the webhook endpoint RPCs in memory", () => {
  it("random create, update, get, delete and list calls never produce a 5xx, and leave exactly the endpoints that answered 200", async () => {
    const api = inMemoryApi();
    const hits = new HitRates();
    const { model, gone } = await fuzzEndpointCalls(api.rest, await api.token("fz-wh"), 1000, hits);
    expect(model.size + gone.length, "some creates succeeded").toBeGreaterThan(0);
    // Updates also go to deleted endpoints and unknown ids, so fewer of them can succeed.
    hits.expectAtLeast("webhook endpoints in memory", { create: 1 / 3, update: 1 / 10, list: 1 / 3 });
    expect([...api.endpoints.rows.keys()].sort()).toEqual([...model.keys()].sort());
    for (const [id, last] of model) {
      const stored = api.endpoints.rows.get(id)!;
      expect({ url: stored.url, eventTypes: stored.eventTypes, enabled: stored.enabled, disabledReason: stored.disabledReason ?? "" }, id).toEqual({
        url: last.url,
        eventTypes: last.eventTypes,
        enabled: last.enabled,
        disabledReason: last.disabledReason,
      });
    }
  });
});
