/**
 * The JSON API as a team that only has the OpenAPI document meets it: the served document passes
 * a real OpenAPI 3.1 validator, `openapi-typescript` generates a client's types from it that
 * type-check against calls made through `openapi-fetch`, and every response those calls get back
 * is validated against the document's own schemas (ajv, JSON Schema 2020-12), undocumented
 * properties included.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { default as formats } from "ajv-formats";
import createClient, { type Middleware } from "openapi-fetch";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { png } from "../fixtures/files/index.js";
import { apiUrl, tokenFor, uniqueTenant } from "../support/clients.js";
import { put } from "../support/uploads.js";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, any> }>>; components: { responses: Record<string, any> } };

let doc: Doc;
const seen: { method: string; template: string; status: number; body: unknown }[] = [];

/** Protobuf-JSON objects are closed: a property the document does not name is a defect. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== "object") return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, closed(v)]));
  if ("properties" in copy && !("additionalProperties" in copy)) copy.additionalProperties = false;
  return copy;
}

function responseValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  formats.default(ajv);
  for (const format of ["int32", "int64", "uint32", "uint64", "float", "double", "byte"]) ajv.addFormat(format, true);
  ajv.addSchema(closed(doc) as object, "openapi.json");
  return (method: string, template: string, status: number, body: unknown) => {
    const responses = doc.paths[template]?.[method.toLowerCase()]?.responses;
    if (!responses) throw new Error(`${method} ${template} is not in the document`);
    let response = responses[String(status)] ?? responses.default;
    if (response?.$ref) response = doc.components.responses[response.$ref.split("/").pop()];
    const pointer = response?.content?.["application/json"]?.schema;
    if (!pointer) throw new Error(`${method} ${template} ${status}: no JSON schema documented`);
    const validate = ajv.compile({ $ref: `openapi.json${pointer.$ref}` });
    return validate(body) ? [] : (validate.errors ?? []).map((e: { instancePath: string; message?: string; params: unknown }) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  };
}

/** Remembers each call's path template (what the document is keyed by) and its JSON answer. */
const recorder: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const body = response.headers.get("content-type")?.includes("application/json") ? await response.clone().json() : undefined;
    seen.push({ method: request.method, template: schemaPath, status: response.status, body });
    return response;
  },
};

beforeAll(async () => {
  doc = (await (await fetch(`${apiUrl()}/api/v1/openapi.json`)).json()) as Doc;
});

describe("the served OpenAPI document", () => {
  it("passes a real OpenAPI 3.1 validator", async () => {
    const result = await new Validator().validate(structuredClone(doc) as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("generates client types (openapi-typescript) that type-check against typed openapi-fetch calls", async () => {
    const dir = path.join(process.cwd(), ".test-data", `openapi-client-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "api.d.ts"), astToString(await openapiTS(structuredClone(doc) as any)));
    writeFileSync(
      path.join(dir, "usage.ts"),
      `import createClient from "openapi-fetch";
import type { paths } from "./api.js";
const client = createClient<paths>({ baseUrl: "http://127.0.0.1:1" });
export async function use() {
  const { data } = await client.POST("/api/v1/uploads/initiate", { body: { objectClass: "REPORT", ownerEntityType: "User", ownerEntityId: "u", originalFilename: "a.pdf", contentType: "application/pdf", fileSize: "1" } });
  const id: string | undefined = data?.storedObject?.id;
  const got = await client.GET("/api/v1/uploads/{objectId}", { params: { path: { objectId: id ?? "" } } });
  const status: "READY" | "REJECTED" | string | undefined = got.data?.storedObject?.status;
  // @ts-expect-error: the document names no such route
  await client.GET("/api/v1/no-such-route");
  return status;
}
`,
    );
    const program = ts.createProgram([path.join(dir, "usage.ts")], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
  });
});

describe("a client generated from the document (openapi-fetch), every answer checked against it", () => {
  it("uploads, reads, lists, signs a download, refuses, and manages fields and customers", async () => {
    const token = await tokenFor(uniqueTenant());
    const api = createClient<any>({ baseUrl: apiUrl(), headers: { authorization: `Bearer ${token}` } });
    api.use(recorder);
    const bytes = png(4, 4);
    const started = await api.POST("/api/v1/uploads/initiate", {
      body: { objectClass: "GENERAL_DOCUMENT", ownerEntityType: "Account", ownerEntityId: "a1", originalFilename: "a.png", contentType: "image/png", fileSize: String(bytes.length) },
    });
    expect((await put(started.data, bytes)).status).toBe(200);
    const objectId = started.data.storedObject.id;
    const path = { objectId };
    const done = await api.POST("/api/v1/uploads/{objectId}/complete", { params: { path }, body: { waitForResult: true } });
    expect(done.data.storedObject.status).toBe("READY");
    await api.GET("/api/v1/uploads/{objectId}", { params: { path } });
    await api.GET("/api/v1/uploads", { params: { query: { ownerEntityType: "Account", ownerEntityId: "a1" } } });
    await api.POST("/api/v1/uploads/{objectId}/download-url", { params: { path }, body: {} });
    await api.GET("/api/v1/uploads/{objectId}/audit", { params: { path } });
    const missing = await api.GET("/api/v1/uploads/{objectId}", { params: { path: { objectId: "0190a6f4-0000-7000-8000-000000000000" } } });
    expect(missing.response.status).toBe(404);
    await api.POST("/api/v1/uploads/initiate", { body: { objectClass: "GENERAL_DOCUMENT" } });
    const tier = await api.POST("/api/v1/custom-fields", { body: { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "string", defaultValue: "bronze" } });
    expect(tier.response.status, JSON.stringify(tier.error)).toBe(200);
    await api.GET("/api/v1/custom-fields/{entityTypeOrId}", { params: { path: { entityTypeOrId: "Customer" } } });
    const customer = await api.POST("/api/v1/customers", { body: { name: "Ada", email: "ada@example.com", customFields: {} } });
    await api.GET("/api/v1/customers/{id}", { params: { path: { id: customer.data.customer.id } } });
    await api.GET("/api/v1/customers", { params: { query: { tier__eq: "bronze" } } });
    // The document's `filters` object, as openapi-fetch serialises it by default: filters[tier__eq]=gold.
    const grace = await api.POST("/api/v1/customers", { body: { name: "Grace", email: "grace@example.com", customFields: { tier: "gold" } } });
    const gold = await api.GET("/api/v1/customers", { params: { query: { filters: { tier__eq: "gold" } } } });
    expect(gold.response.status, JSON.stringify(gold.error)).toBe(200);
    expect(gold.data.customers.map((c: { id: string }) => c.id)).toEqual([grace.data.customer.id]);

    expect(seen.map((s) => s.status)).toContain(400);
    const validate = responseValidator();
    const failures = seen.flatMap((s) => validate(s.method, s.template, s.status, s.body).map((e: string) => `${s.method} ${s.template} ${s.status}: ${e}`));
    expect(failures).toEqual([]);
    expect(seen.length).toBeGreaterThanOrEqual(15);
  });
});
