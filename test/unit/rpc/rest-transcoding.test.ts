/**
 * The JSON API at /api/v1 as the `google.api.http` annotations define it, through the REST
 * handler the server mounts and the in-memory router behind it: routing, how a request message
 * is built from path, query and body, and how bad input is refused (never a 5xx).
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { beforeEach, describe, expect, it } from "vitest";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { matchRoute, type HttpRoute } from "../../../src/rpc/rest/http-routes.js";
import { reasonOf, violationsOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

const initiate = {
  objectClass: "USER_PROFILE_PHOTO",
  ownerEntityType: "User",
  ownerEntityId: "u-1",
  originalFilename: "me.png",
  contentType: "image/png",
  fileSize: 1000,
};

let api: InMemoryApi;
let token: string;
beforeEach(async () => {
  api = inMemoryApi();
  token = await api.token("t1");
});

describe("routing from the annotations", () => {
  it("answers 404 not_found for a path no annotation declares", async () => {
    const res = await api.rest("GET", "/api/v1/nothing-here", { token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect(res.body.message).toBe("no route for /api/v1/nothing-here");
  });

  it("answers 405 with Allow for a declared path and another method", async () => {
    const res = await api.rest("PUT", "/api/v1/uploads/initiate", { token });
    expect(res.status).toBe(405);
    // "initiate" is also a well-formed {object_id} segment, for GET and DELETE of /uploads/{object_id}.
    expect(res.headers.allow?.split(", ")).toEqual(["POST", "GET", "DELETE"]);
    expect(res.body.code).toBe("unimplemented");
  });

  it("routes POST /uploads/initiate to InitiateUpload, though `initiate` is also a well-formed object id", async () => {
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: initiate });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(api.lifecycle.calls.map((c) => c.method)).toEqual(["start"]);
  });

  it("prefers the template with more literal segments when two of one method match", () => {
    const route = (segments: HttpRoute["segments"], method: DescMethod): HttpRoute => ({ httpMethod: "GET", template: "", segments, body: "", method });
    const byId = route([{ literal: "uploads" }, { variable: "object_id" }], FileStorageService.method.getUpload);
    const literal = route([{ literal: "uploads" }, { literal: "recent" }], FileStorageService.method.listUploads);
    for (const routes of [[byId, literal], [literal, byId]]) {
      const result = matchRoute(routes, "GET", "/uploads/recent");
      expect(result.kind === "match" && result.match.route.method.name).toBe("ListUploads");
    }
    const other = matchRoute([byId, literal], "GET", "/uploads/0191e1c6");
    expect(other.kind === "match" && other.match.pathParams).toEqual({ object_id: "0191e1c6" });
  });

  it("reads path variables into the request, percent-decoded", async () => {
    const id = (await api.rest("POST", "/api/v1/uploads/initiate", { token, body: initiate })).body.storedObject.id;
    const res = await api.rest("GET", `/api/v1/uploads/${encodeURIComponent(id)}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.storedObject.id).toBe(id);
  });

  it("routes a custom verb after the last path variable (`{entity_type}:validate`)", async () => {
    await api.rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number" } });
    const res = await api.rest("POST", "/api/v1/custom-fields/Customer:validate", { token, body: { customFields: { score: "7" } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.customFields).toEqual({ score: 7 });
    // An unknown verb is no verb: the whole segment is then an {id} or {entity_type}, which POST has no route for.
    const unknownVerb = await api.rest("POST", "/api/v1/custom-fields/Customer:explode", { token, body: {} });
    expect([unknownVerb.status, unknownVerb.headers.allow]).toEqual([405, "GET, PATCH, DELETE"]);
  });
});

describe("the request message from query and body", () => {
  it("reads query parameters into scalar fields, booleans as true or false only", async () => {
    await api.rest("POST", "/api/v1/uploads/initiate", { token, body: initiate });
    const listed = await api.rest("GET", "/api/v1/uploads?ownerEntityId=u-1&isCurrent=false&pageSize=1", { token });
    expect(listed.status).toBe(200);
    expect(listed.body.storedObjects).toHaveLength(1);
    const notBoolean = await api.rest("GET", "/api/v1/uploads?isCurrent=yes", { token });
    expect(notBoolean.status).toBe(400);
    expect(reasonOf(notBoolean.body)).toBe("MALFORMED_REQUEST");
    expect(notBoolean.body.message).toBe('query parameter isCurrent must be true or false, got "yes"');
  });

  it("refuses a query parameter that names no field of a request without filters", async () => {
    const res = await api.rest("GET", "/api/v1/uploads?color=red", { token });
    expect(res.status).toBe(400);
    expect(reasonOf(res.body)).toBe("MALFORMED_REQUEST");
    expect(res.body.message).toBe('unknown query parameter "color"');
  });

  it("puts query parameters that name no field into the `filters` map of a list call", async () => {
    await api.rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number" } });
    const res = await api.rest("GET", "/api/v1/customers?name=Ada&score__gte=10", { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(api.customers.lastQuery).toEqual({
      name: "Ada",
      email: undefined,
      customFilter: { clauses: [{ fieldKey: "score", fieldType: "NUMBER", operator: "gte", values: [10] }] },
    });
  });

  it("reads the OpenAPI deepObject form `filters[score__gte]=10` (openapi-fetch's default) into the same map", async () => {
    await api.rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number" } });
    const res = await api.rest("GET", `/api/v1/customers?name=Ada&${encodeURIComponent("filters[score__gte]")}=10`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(api.customers.lastQuery?.customFilter).toEqual({ clauses: [{ fieldKey: "score", fieldType: "NUMBER", operator: "gte", values: [10] }] });
    const nested = await api.rest("GET", "/api/v1/customers?filters[score][gte]=10", { token });
    expect(nested.status).toBe(400);
  });

  it("accepts 64-bit integers as JSON numbers or strings, and answers them as strings", async () => {
    const asNumber = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: { ...initiate, fileSize: 10 } });
    const asString = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: { ...initiate, fileSize: "10" } });
    expect([asNumber.status, asString.status]).toEqual([200, 200]);
    expect([asNumber.body.storedObject.fileSize, asString.body.storedObject.fileSize]).toEqual(["10", "10"]);
  });

  it("answers enums by name", async () => {
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: initiate });
    expect(res.body.storedObject).toMatchObject({ objectClass: "USER_PROFILE_PHOTO", status: "PENDING_UPLOAD", retentionPolicy: "TEMP_UPLOAD_24H" });
  });

  it("forwards x-request-id to the RPC, so the audit entry carries it", async () => {
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: initiate, headers: { "x-request-id": "init-req-1" } });
    expect(api.objects.auditLog.find((a) => a.objectId === res.body.storedObject.id)?.actor.requestId).toBe("init-req-1");
  });
});

describe("bad input is a client error, never a 5xx", () => {
  it("answers malformed JSON with 400 invalid_argument MALFORMED_REQUEST", async () => {
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_argument");
    expect(reasonOf(res.body)).toBe("MALFORMED_REQUEST");
  });

  it("refuses a body that is not JSON, or not a JSON object", async () => {
    const text = await api.rest("POST", "/api/v1/uploads/initiate", { token, rawBody: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(text.status).toBe(400);
    expect(text.body.message).toBe('content-type must be application/json, got "application/x-www-form-urlencoded"');
    const array = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: [initiate] });
    expect(array.status).toBe(400);
    expect(array.body.message).toBe("the request body must be a JSON object");
  });

  it("names the field of a wrong type", async () => {
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: { ...initiate, fileSize: "big" } });
    expect(res.status).toBe(400);
    expect(reasonOf(res.body)).toBe("MALFORMED_REQUEST");
    expect(res.body.message).toMatch(/^fileSize: /);
  });

  it("names the field of an unknown enum value, with the values it accepts", async () => {
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: { ...initiate, objectClass: "PASSPORT" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^objectClass: unknown value "PASSPORT"; expected one of USER_PROFILE_PHOTO, /);
    expect(violationsOf(res.body)).toEqual(["objectClass"]);
  });

  it("refuses an unknown key rather than ignoring it", async () => {
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: { ...initiate, tenantId: "another" } });
    expect(res.status).toBe(400);
    expect(reasonOf(res.body)).toBe("MALFORMED_REQUEST");
    expect(res.body.message).toContain("tenantId");
  });

  it("refuses a body over the limit (256 KiB) with 413 resource_exhausted", async () => {
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: { ...initiate, originalFilename: "x".repeat(300_000) } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("resource_exhausted");
    expect(api.objects.rows.size).toBe(0);
  });
});
