import type { DeliveryRef } from "./delivery.js";

/**
 * Which waiting deliveries the dispatcher starts. A started delivery holds a slot of the webhook
 * worker whenever its attempt runs, and an endpoint that hangs holds it for the whole request
 * timeout, so no tenant may have more than its share of deliveries in flight (started, not ended)
 * and no endpoint more than its own bound: one tenant's hanging endpoints then hold at most its
 * share of the slots, and other tenants' deliveries keep moving. The rest wait in the outbox.
 *
 * Tenants take turns, one delivery each per round, so a batch cut short by its size is spread
 * over tenants rather than taken by the oldest backlog; within a tenant, the endpoint with the
 * fewest in flight goes first (the oldest delivery on a tie), so one hanging endpoint does not
 * take its tenant's whole share while others wait.
 */
export interface DeliveryCandidate extends DeliveryRef {
  endpointId: string;
}

export interface InFlight {
  byTenant: ReadonlyMap<string, number>;
  byEndpoint: ReadonlyMap<string, number>;
}

export interface FairShareLimits {
  /** Deliveries to start in this claim. */
  batch: number;
  perTenant: number;
  perEndpoint: number;
}

/** A quarter of the worker's slots, at least one: four tenants with hanging endpoints still leave none starved. */
export function defaultTenantShare(workerSlots: number): number {
  return Math.max(1, Math.floor(workerSlots / 4));
}

/** `candidates` oldest first; answers the deliveries to start, in the order to start them. */
export function fairClaim(candidates: readonly DeliveryCandidate[], inFlight: InFlight, limits: FairShareLimits): DeliveryCandidate[] {
  const byTenant = new Map(inFlight.byTenant);
  const byEndpoint = new Map(inFlight.byEndpoint);
  const queues = new Map<string, DeliveryCandidate[]>();
  for (const c of candidates) queues.set(c.tenantId, [...(queues.get(c.tenantId) ?? []), c]);
  const chosen: DeliveryCandidate[] = [];
  let progressed = true;
  while (progressed && chosen.length < limits.batch) {
    progressed = false;
    for (const [tenant, queue] of queues) {
      if (chosen.length >= limits.batch) break;
      if ((byTenant.get(tenant) ?? 0) >= limits.perTenant) continue;
      const next = leastBusyEndpoint(queue, byEndpoint, limits.perEndpoint);
      if (next < 0) continue;
      const [taken] = queue.splice(next, 1);
      chosen.push(taken);
      byTenant.set(tenant, (byTenant.get(tenant) ?? 0) + 1);
      byEndpoint.set(taken.endpointId, (byEndpoint.get(taken.endpointId) ?? 0) + 1);
      progressed = true;
    }
  }
  return chosen;
}

/** The index of the oldest candidate whose endpoint has the fewest in flight and room left; -1 if none. */
function leastBusyEndpoint(queue: readonly DeliveryCandidate[], byEndpoint: ReadonlyMap<string, number>, perEndpoint: number): number {
  let best = -1;
  let bestBusy = perEndpoint;
  queue.forEach((c, i) => {
    const busy = byEndpoint.get(c.endpointId) ?? 0;
    if (busy < bestBusy) {
      best = i;
      bestBusy = busy;
    }
  });
  return best;
}
