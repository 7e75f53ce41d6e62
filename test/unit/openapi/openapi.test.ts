import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateOpenApi, jsonApiServices, serializeOpenApi } from "../../../src/rpc/openapi/generate-openapi.js";

const committedPath = path.join(process.cwd(), "openapi", "openapi.json");
const document = generateOpenApi(jsonApiServices) as any;

describe("the OpenAPI document", () => {
  it("is the committed openapi/openapi.json (run `npm run openapi` and commit when this fails)", () => {
    const committed = readFileSync(committedPath, "utf8");
    const fresh = serializeOpenApi(document);
    // A plain boolean first: a 2,000-line diff would hide the instruction.
    expect(committed === fresh, "openapi/openapi.json is stale: run `npm run openapi` and commit the result").toBe(true);
  });

  it("is generated identically twice (sorted keys)", () => {
    expect(serializeOpenApi(generateOpenApi(jsonApiServices))).toBe(serializeOpenApi(document));
  });

  it("declares OpenAPI 3.1 with bearer JWT security", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.components.securitySchemes.bearerAuth).toEqual({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });

  it.each([
    ["/api/v1/uploads/initiate", "post", "FileStorageService_InitiateUpload"],
    ["/api/v1/uploads/{objectId}/complete", "post", "FileStorageService_CompleteUpload"],
    ["/api/v1/uploads/{objectId}", "delete", "FileStorageService_DeleteUpload"],
    ["/api/v1/custom-fields/{entityTypeOrId}", "get", "CustomFieldsService_ListFieldDefinitions"],
    ["/api/v1/custom-fields/{entityTypeOrId}", "patch", "CustomFieldsService_UpdateFieldDefinition"],
    ["/api/v1/custom-fields/{entityType}:resolve", "post", "CustomFieldsService_ResolveValuesForCreate"],
    ["/api/v1/customers", "get", "CustomersService_ListCustomers"],
  ])("has %s %s (%s)", (route, method, operationId) => {
    expect(document.paths[route]?.[method]?.operationId).toBe(operationId);
  });

  it("names path variables with the JSON names the transcoder fills", () => {
    const complete = document.paths["/api/v1/uploads/{objectId}/complete"].post;
    expect(complete.parameters).toEqual([{ name: "objectId", in: "path", required: true, schema: { type: "string", format: "uuid" } }]);
    expect(Object.keys(complete.requestBody.content["application/json"].schema.properties)).toEqual(["checksum", "waitForResult"]);
  });

  it("takes the fields of a body-less POST from the query (download-url's disposition)", () => {
    const downloadUrl = document.paths["/api/v1/uploads/{objectId}/download-url"].post;
    expect(downloadUrl.requestBody).toBeUndefined();
    expect(downloadUrl.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual(["path:objectId", "query:disposition"]);
  });

  it("documents list filters as the deepObject parameter clients send by default (filters[tier__eq]=gold)", () => {
    const filters = document.paths["/api/v1/customers"].get.parameters.find((p: any) => p.name === "filters");
    expect(filters).toMatchObject({ in: "query", style: "deepObject", explode: true, schema: { type: "object", additionalProperties: { type: "string" } } });
  });

  it("has a server the paths resolve against", () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: "/" })]);
  });

  it("lists no *_UNSPECIFIED value in what a request sends; answers keep it", () => {
    const requestEnums = new Set<string>();
    const seen = new Set<string>();
    const walk = (schema: unknown): void => {
      if (Array.isArray(schema)) return schema.forEach(walk);
      if (schema === null || typeof schema !== "object") return;
      const node = schema as Record<string, unknown>;
      if (typeof node.$ref === "string" && node.$ref.startsWith("#/components/schemas/") && !seen.has(node.$ref)) {
        seen.add(node.$ref);
        walk(document.components.schemas[node.$ref.split("/").pop()!]);
      }
      if (Array.isArray(node.enum)) node.enum.forEach((v) => requestEnums.add(String(v)));
      Object.values(node).forEach(walk);
    };
    for (const item of Object.values(document.paths) as any[]) {
      for (const op of Object.values(item) as any[]) walk([op.parameters, op.requestBody]);
    }
    expect(requestEnums).toContain("GENERAL_DOCUMENT"); // the walk reaches the enums
    expect([...requestEnums].filter((v) => v.endsWith("_UNSPECIFIED"))).toEqual([]);
    const initiate = document.components.schemas["filestorage.v1.InitiateUploadRequest"];
    expect(document.components.schemas[initiate.properties.objectClass.$ref.split("/").pop()].enum).not.toContain("OBJECT_CLASS_UNSPECIFIED");
    expect(document.components.schemas["filestorage.v1.ObjectStatus"].enum).toContain("OBJECT_STATUS_UNSPECIFIED");
  });

  it("documents the error answers of every operation with the Connect error body", () => {
    for (const [template, item] of Object.entries(document.paths) as [string, any][]) {
      for (const [method, op] of Object.entries(item) as [string, any][]) {
        const statuses = Object.keys(op.responses);
        expect(statuses, `${method} ${template}`).toEqual(expect.arrayContaining(["200", "400", "401", "429", "500", "default"]));
        if (template.includes("{")) expect(statuses, `${method} ${template}`).toContain("404");
        for (const status of statuses.filter((s) => s !== "200")) {
          const name = op.responses[status].$ref.split("/").pop();
          expect(document.components.responses[name].content["application/json"].schema, `${method} ${template} ${status}`).toEqual({
            $ref: "#/components/schemas/connect.Error",
          });
        }
      }
    }
    expect(document.paths["/api/v1/uploads/initiate"].post.responses["413"]).toEqual({ $ref: "#/components/responses/PayloadTooLarge" });
  });

  it("shows the contract's protovalidate limits and required fields", () => {
    const schemas = document.components.schemas;
    expect(schemas["customers.v1.CreateCustomerRequest"].properties.name).toMatchObject({ type: "string", minLength: 1, maxLength: 200 });
    expect(schemas["customers.v1.CreateCustomerRequest"].required).toEqual(["name"]);
    expect(schemas["filestorage.v1.InitiateUploadRequest"].required).toEqual(
      expect.arrayContaining(["objectClass", "originalFilename", "contentType", "fileSize"]),
    );
    expect(schemas["customfields.v1.CreateFieldDefinitionRequest"].properties.defaultRules.maxItems).toBe(100);
    expect(schemas["customers.v1.UpdateCustomerRequest"].properties.expectedVersion.minimum).toBe(1);
    const pageSize = document.paths["/api/v1/customers"].get.parameters.find((p: any) => p.name === "pageSize");
    expect(pageSize.schema).toMatchObject({ type: "integer", minimum: 0 });
    expect(pageSize.schema.description).toMatch(/above 500 is read as 500/);
    const hold = document.paths["/api/v1/uploads/{objectId}/legal-hold"].post;
    expect(hold.requestBody.content["application/json"].schema.required).toEqual(["reason"]);
  });

  it("follows the proto3 JSON mapping", () => {
    const stored = document.components.schemas["filestorage.v1.StoredObject"].properties;
    expect(stored.fileSize).toMatchObject({ type: "string", format: "int64" });
    expect(stored.createdAt).toEqual({ type: "string", format: "date-time" });
    expect(stored.status).toEqual({ $ref: "#/components/schemas/filestorage.v1.ObjectStatus" });
    expect(document.components.schemas["filestorage.v1.ObjectStatus"].enum).toContain("READY");
    const audit = document.components.schemas["filestorage.v1.AuditEntry"].properties;
    expect(audit.details).toEqual({ type: "object", additionalProperties: true });
    const rule = document.components.schemas["customfields.v1.Rule"].properties;
    expect(Object.keys(rule)).toContain("then");
    const update = document.components.schemas["customfields.v1.UpdateFieldDefinitionRequest"].properties;
    expect(update.updateMask.type).toBe("string");
  });

  it("answers errors with the Connect error body", () => {
    const error = document.components.schemas["connect.Error"];
    expect(error.properties.code.enum).toEqual(expect.arrayContaining(["not_found", "invalid_argument", "unauthenticated"]));
    expect(document.paths["/api/v1/uploads"].get.responses.default).toEqual({ $ref: "#/components/responses/Error" });
  });

  it("resolves every $ref", () => {
    const refs = [...serializeOpenApi(document).matchAll(/"\$ref": "#\/components\/(schemas|responses)\/([^"]+)"/g)];
    for (const [, kind, name] of refs) expect(document.components[kind][name], `${kind}/${name}`).toBeDefined();
  });
});
