/**
 * PreviewFieldDefinition and the pages of ListFieldDefinitions at their contract, in memory: a
 * draft resolved with a sample against the stored definitions, refused as a save would refuse it,
 * with nothing stored; and definitions paged by display order with tokens bound to the entity type.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { reasonOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

let api: InMemoryApi;
let token: string;
beforeEach(async () => {
  api = inMemoryApi();
  token = await api.token("t1", { user: "alice" });
});

const field = (fieldKey: string, extra: Record<string, unknown> = {}) => ({ entityType: "Customer", fieldKey, fieldLabel: fieldKey, fieldType: "string", ...extra });

async function define(body: Record<string, unknown>) {
  const res = await api.rest("POST", "/api/v1/custom-fields", { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.fieldDefinition;
}

const preview = (body: Record<string, unknown>, as = token) => api.rest("POST", "/api/v1/custom-fields/Customer:preview", { token: as, body });

describe("PreviewFieldDefinition", () => {
  it("resolves the sample against the stored definitions plus the draft, and stores nothing", async () => {
    await define(field("amount", { fieldType: "number", defaultValue: "4" }));
    const res = await preview({ draft: field("double", { fieldType: "computed", computedFormula: "amount * 2" }), customFields: { amount: 5 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.customFields).toEqual({ amount: 5, double: 10 });
    expect(res.body.violations ?? []).toEqual([]);
    const list = await api.rest("GET", "/api/v1/custom-fields/Customer", { token });
    expect(list.body.fieldDefinitions.map((d: { fieldKey: string }) => d.fieldKey)).toEqual(["amount"]);
    expect(api.fields.rows.size).toBe(1);
  });

  it("a draft with a stored key replaces that definition (an edit)", async () => {
    await define(field("tier", { defaultValue: "silver" }));
    const res = await preview({ draft: field("tier", { defaultValue: "gold" }), customFields: {} });
    expect(res.body.customFields).toEqual({ tier: "gold" });
  });

  it("answers the sample's violations, per field, instead of failing", async () => {
    const res = await preview({ draft: field("score", { fieldType: "number", validation: { max: 10 } }), customFields: { score: 20 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.violations).toEqual([expect.objectContaining({ field: "customFields.score", reason: "CUSTOM_FIELD_VALIDATION_FAILED" })]);
  });

  it("refuses a draft that would close a formula cycle with the error a save gives", async () => {
    await define(field("a", { fieldType: "computed", computedFormula: "b + 1" }));
    const draft = field("b", { fieldType: "computed", computedFormula: "a + 1" });
    const previewed = await preview({ draft, customFields: {} });
    const saved = await api.rest("POST", "/api/v1/custom-fields", { token, body: draft });
    expect([previewed.status, reasonOf(previewed.body)]).toEqual([400, "FORMULA_CYCLE"]);
    expect(previewed.body).toEqual(saved.body);
  });

  it("refuses a draft that breaks a schema rule as create does, and a draft of another entity type", async () => {
    const broken = await preview({ draft: field("total", { fieldType: "computed" }), customFields: {} });
    expect([broken.status, reasonOf(broken.body)]).toEqual([400, "VALIDATION_FAILED"]);
    const other = await preview({ draft: { ...field("x"), entityType: "Product" }, customFields: {} });
    expect(other.status).toBe(400);
  });

  it("needs custom_field_definition:READ", async () => {
    const none = await api.token("t1", { perms: ["customer:READ"] });
    expect((await preview({ draft: field("x"), customFields: {} }, none)).status).toBe(403);
  });
});

describe("ListFieldDefinitions pages", () => {
  it("pages by display order then key, with a token that only this entity type's list accepts", async () => {
    for (const [key, order] of [["d", 2], ["c", 1], ["b", 1], ["a", 3], ["e", 0]] as const) await define(field(key, { displayOrder: order }));
    const keys: string[] = [];
    let pageToken = "";
    let pages = 0;
    do {
      const res = await api.rest("GET", `/api/v1/custom-fields/Customer?pageSize=2${pageToken ? `&pageToken=${pageToken}` : ""}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.fieldDefinitions.length).toBeLessThanOrEqual(2);
      keys.push(...res.body.fieldDefinitions.map((d: { fieldKey: string }) => d.fieldKey));
      pageToken = res.body.nextPageToken ?? "";
      pages++;
      if (pages === 1) {
        const elsewhere = await api.rest("GET", `/api/v1/custom-fields/Product?pageToken=${pageToken}`, { token });
        expect([elsewhere.status, reasonOf(elsewhere.body)]).toEqual([400, "VALIDATION_FAILED"]);
      }
    } while (pageToken);
    expect(keys).toEqual(["e", "b", "c", "d", "a"]);
    expect(pages).toBe(3);
  });

  it("a definition added between pages does not shift the next page", async () => {
    for (const [key, order] of [["a", 1], ["b", 2], ["c", 3]] as const) await define(field(key, { displayOrder: order }));
    const first = await api.rest("GET", "/api/v1/custom-fields/Customer?pageSize=2", { token });
    await define(field("aa", { displayOrder: 0 }));
    const second = await api.rest("GET", `/api/v1/custom-fields/Customer?pageSize=2&pageToken=${first.body.nextPageToken}`, { token });
    expect(second.body.fieldDefinitions.map((d: { fieldKey: string }) => d.fieldKey)).toEqual(["c"]);
    expect(second.body.nextPageToken ?? "").toBe("");
  });

  it("without pageSize answers up to 50, and refuses a forged token", async () => {
    for (let i = 0; i < 3; i++) await define(field(`f_${"abc"[i]}`));
    const all = await api.rest("GET", "/api/v1/custom-fields/Customer", { token });
    expect(all.body.fieldDefinitions).toHaveLength(3);
    expect(all.body.nextPageToken ?? "").toBe("");
    const forged = btoa(JSON.stringify({ c: new Date(0).toISOString(), i: "DROP TABLE", f: "definitions:Customer" }));
    expect((await api.rest("GET", `/api/v1/custom-fields/Customer?pageToken=${forged}`, { token })).status).toBe(400);
  });
});
