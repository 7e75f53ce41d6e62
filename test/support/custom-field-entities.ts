/**
 * The JSON API of any entity module with custom fields (customers, products), as the integration
 * tests drive it: a tenant with the module's field definitions, a create that must succeed, and a
 * list that must succeed, reduced to one property per row.
 */
import { expect } from "vitest";
import { rest, tokenFor, uniqueTenant } from "./clients.js";

/** A new tenant (named from `prefix`) with `definitions` created under `entityType`. */
export async function tenantWithDefinitions(prefix: string, entityType: string, definitions: readonly Record<string, unknown>[]) {
  const tenant = uniqueTenant(prefix);
  const admin = await tokenFor(tenant, { user: "admin" });
  for (const definition of definitions) {
    const res = await rest("POST", "/api/v1/custom-fields", { token: admin, body: { entityType, ...definition } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { tenant, admin };
}

/** POST `collection` (e.g. "customers"); the created entity, from the member named by `single`. */
export async function createOk(collection: string, single: string, token: string, body: Record<string, unknown>) {
  const res = await rest("POST", `/api/v1/${collection}`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body[single];
}

/** GET `collection?query`; the sorted values of `property` of the listed entities. */
export async function listedValues(collection: string, property: string, token: string, query: string): Promise<string[]> {
  const res = await rest("GET", `/api/v1/${collection}?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body[collection] as Record<string, string>[]).map((entity) => entity[property]!).sort();
}
