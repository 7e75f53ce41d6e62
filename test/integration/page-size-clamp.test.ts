/**
 * AIP-158: a page size above the maximum (500) is read as the maximum, not refused, on every list
 * RPC: each RPC of the contract whose request has `page_size`, found from the descriptors.
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { jsonApiServices } from "../../src/rpc/openapi/generate-openapi.js";
import { apiUrl, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { violationsOf } from "../support/errors.js";

const listRpcs: DescMethod[] = jsonApiServices.flatMap((service) => service.methods).filter((method) => method.input.fields.some((field) => field.name === "page_size"));

describe("page sizes above the maximum are clamped", () => {
  it("finds the list RPCs of the contract", () => {
    expect(listRpcs.map((m) => m.name)).toEqual(expect.arrayContaining(["ListUploads", "SearchAuditEntries", "ListCustomers", "ListWebhookEndpoints"]));
  });

  it.each(listRpcs.map((m) => [`${m.parent.typeName}/${m.name}`, m] as const))("%s over Connect with pageSize 501 and 2147483647 does not refuse the page size", async (name, method) => {
    const token = await tokenFor(uniqueTenant());
    for (const pageSize of [501, 2147483647]) {
      const res = await fetch(`${apiUrl()}/${name}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ pageSize }),
      });
      // Some need other fields too (an entity type, an id): those may be refused, never for the page size.
      const body = await res.json();
      if (res.status !== 200) expect(violationsOf(body), `${name} ${pageSize}: ${JSON.stringify(body)}`).not.toContain("pageSize");
      else expect(res.status).toBe(200);
    }
  });

  it("REST lists answer 200 to pageSize=501 and still refuse a negative size", async () => {
    const token = await tokenFor(uniqueTenant());
    for (const path of ["/api/v1/uploads", "/api/v1/audit-entries", "/api/v1/customers", "/api/v1/products", "/api/v1/webhook-endpoints"]) {
      expect((await rest("GET", `${path}?pageSize=501`, { token })).status, path).toBe(200);
      const negative = await rest("GET", `${path}?pageSize=-1`, { token });
      expect(negative.status, path).toBe(400);
      expect(violationsOf(negative.body), path).toEqual(["pageSize"]);
    }
  });
});
