import { describe, expect, it } from "vitest";
import { defaultTenantShare, fairClaim, type DeliveryCandidate, type InFlight } from "../../../src/domain/webhooks/fair-share.js";

let seq = 0;
const waiting = (tenantId: string, endpointId: string, count: number): DeliveryCandidate[] =>
  Array.from({ length: count }, () => ({ tenantId, endpointId, deliveryId: `d${++seq}` }));
const busy = (byTenant: Record<string, number> = {}, byEndpoint: Record<string, number> = {}): InFlight => ({
  byTenant: new Map(Object.entries(byTenant)),
  byEndpoint: new Map(Object.entries(byEndpoint)),
});
const tenantsOf = (chosen: DeliveryCandidate[]) => chosen.map((c) => c.tenantId);

describe("the fair share of the webhook worker", () => {
  it("is a quarter of the worker's slots, at least one", () => {
    expect([defaultTenantShare(20), defaultTenantShare(7), defaultTenantShare(1)]).toEqual([5, 1, 1]);
  });

  it("starts no more of one tenant's deliveries than its share, however old its backlog, and the rest of the batch goes to others", () => {
    const candidates = [...waiting("a", "a1", 10), ...waiting("a", "a2", 10), ...waiting("b", "b1", 2)];
    const chosen = fairClaim(candidates, busy(), { batch: 20, perTenant: 5, perEndpoint: 10 });
    expect(tenantsOf(chosen).filter((t) => t === "a")).toHaveLength(5);
    expect(tenantsOf(chosen).filter((t) => t === "b")).toHaveLength(2);
  });

  it("counts what is already in flight: a tenant whose hanging endpoints hold its share starts nothing, another still starts", () => {
    const candidates = [...waiting("a", "a1", 10), ...waiting("b", "b1", 1)];
    const chosen = fairClaim(candidates, busy({ a: 5 }, { a1: 5 }), { batch: 20, perTenant: 5, perEndpoint: 10 });
    expect(tenantsOf(chosen)).toEqual(["b"]);
  });

  it("takes tenants in turns, so a batch cut short is spread over them rather than taken by the oldest backlog", () => {
    const candidates = [...waiting("a", "a1", 6), ...waiting("b", "b1", 6), ...waiting("c", "c1", 6)];
    const chosen = fairClaim(candidates, busy(), { batch: 6, perTenant: 5, perEndpoint: 10 });
    expect(tenantsOf(chosen)).toEqual(["a", "b", "c", "a", "b", "c"]);
  });

  it("keeps each endpoint's own bound, and within a tenant starts the endpoint with the fewest in flight first", () => {
    const candidates = [...waiting("a", "a1", 4), ...waiting("a", "a2", 4)];
    const chosen = fairClaim(candidates, busy({ a: 2 }, { a1: 2 }), { batch: 20, perTenant: 6, perEndpoint: 3 });
    expect(chosen.map((c) => c.endpointId)).toEqual(["a2", "a2", "a1", "a2"]);
  });

  it("starts nothing when nothing waits or the batch is empty", () => {
    expect(fairClaim([], busy(), { batch: 10, perTenant: 5, perEndpoint: 10 })).toEqual([]);
    expect(fairClaim(waiting("a", "a1", 3), busy(), { batch: 0, perTenant: 5, perEndpoint: 10 })).toEqual([]);
  });
});
