/**
 * How a refusal leaves the API: a domain reason, one Connect code for it (src/rpc/error-codes.ts),
 * the HTTP status Connect gives that code, an ErrorInfo detail with the reason, and a BadRequest
 * detail naming each violated field. Unexpected errors become `internal` without their message.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { beforeEach, describe, expect, it } from "vitest";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { ObjectClass } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { BadRequestSchema, ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { toConnectError } from "../../../src/rpc/errors.js";
import { failureOf, reasonOf, violationsOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

const initiate = {
  objectClass: ObjectClass.USER_PROFILE_PHOTO,
  ownerEntityType: "User",
  ownerEntityId: "u-1",
  originalFilename: "me.png",
  contentType: "image/png",
  fileSize: 1000n,
};
const MISSING = "0191e1c6-0000-7000-8000-000000000000";

let api: InMemoryApi;
let token: string;
beforeEach(async () => {
  api = inMemoryApi();
  token = await api.token("t1");
});

describe("reason, code and HTTP status", () => {
  it("answers a missing object as 404 not_found OBJECT_NOT_FOUND, with the error domain", async () => {
    const res = await api.rest("GET", `/api/v1/uploads/${MISSING}`, { token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect(res.body.message).toBe(`upload ${MISSING} not found`);
    const error = await failureOf(api.client(FileStorageService, token).getUpload({ objectId: MISSING }));
    expect(error.code).toBe(Code.NotFound);
    expect(error.findDetails(ErrorInfoSchema)).toEqual([expect.objectContaining({ reason: "OBJECT_NOT_FOUND", domain: "files-and-fields" })]);
  });

  it("answers a state that forbids the call as 400 failed_precondition (a download before READY)", async () => {
    const { storedObject } = await api.client(FileStorageService, token).initiateUpload(initiate);
    const res = await api.rest("POST", `/api/v1/uploads/${storedObject!.id}/download-url`, { token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("failed_precondition");
    expect(reasonOf(res.body)).toBe("OBJECT_NOT_READY");
    expect(api.objects.actions(storedObject!.id)).not.toContain("DOWNLOAD_URL_ISSUED");
  });

  it("answers a duplicate as 409 already_exists and a stale version as 409 aborted", async () => {
    const body = { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "string" };
    const created = (await api.rest("POST", "/api/v1/custom-fields", { token, body })).body.fieldDefinition;
    const duplicate = await api.rest("POST", "/api/v1/custom-fields", { token, body });
    expect([duplicate.status, duplicate.body.code, reasonOf(duplicate.body)]).toEqual([409, "already_exists", "FIELD_KEY_EXISTS"]);
    const stale = await api.rest("PATCH", `/api/v1/custom-fields/${created.id}`, { token, body: { fieldLabel: "Lost", expectedVersion: 9 } });
    expect([stale.status, stale.body.code, reasonOf(stale.body)]).toEqual([409, "aborted", "VERSION_CONFLICT"]);
  });

  it("answers a request the contract refuses with VALIDATION_FAILED and one BadRequest violation per field", async () => {
    const error = await failureOf(api.client(FileStorageService, token).initiateUpload({ ...initiate, ownerEntityId: "", fileSize: 0n }));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(reasonOf(error)).toBe("VALIDATION_FAILED");
    expect(violationsOf(error).sort()).toEqual(["fileSize", "ownerEntityId"]);
    expect(api.lifecycle.calls).toEqual([]);
  });

  it("refuses the NUL character anywhere in a request as invalid input, naming the field", async () => {
    const res = await api.rest("POST", "/api/v1/custom-fields", {
      token,
      body: { entityType: "Customer", fieldKey: "tier", fieldLabel: "Ti\u0000er", fieldType: "string", uiConfig: { options: [{ label: "a\u0000", value: "a" }] } },
    });
    expect(res.status).toBe(400);
    expect(reasonOf(res.body)).toBe("VALIDATION_FAILED");
    expect(violationsOf(res.body).sort()).toEqual(["fieldLabel", "uiConfig.options[0].label"]);
    const values = await api.rest("POST", "/api/v1/custom-fields/Customer:validate", { token, body: { customFields: { "ni\u0000ck": "x" } } });
    expect(violationsOf(values.body)).toEqual(["customFields.ni\u0000ck"]);
  });
});

describe("unexpected errors", () => {
  it("become 500 internal with reason INTERNAL, and nothing of the original message", async () => {
    api.objects.findLive = async () => {
      throw new Error("connection to 10.0.0.5:5432 reset; password=hunter2");
    };
    const res = await api.rest("GET", `/api/v1/uploads/${MISSING}`, { token });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: "internal", message: "internal error" });
    expect(reasonOf(res.body)).toBe("INTERNAL");
    expect(JSON.stringify(res.body)).not.toContain("hunter2");
  });

  it("leave a typed client with Code.Internal too", async () => {
    api.fields.listLive = async () => {
      throw new TypeError("cannot read properties of undefined");
    };
    const error = await failureOf(api.client(CustomFieldsService, token).listFieldDefinitions({ entityType: "Customer" }));
    expect([error.code, error.rawMessage, reasonOf(error)]).toEqual([Code.Internal, "internal error", "INTERNAL"]);
  });
});

describe("toConnectError on a ConnectError", () => {
  it("adds an ErrorInfo from the code to one without details, and leaves one with details of its own exactly as thrown", () => {
    const bare = toConnectError(new ConnectError("no such service", Code.NotFound));
    expect(bare.findDetails(ErrorInfoSchema)).toEqual([expect.objectContaining({ reason: "NOT_FOUND", domain: "files-and-fields" })]);
    const violations = create(BadRequestSchema, { fieldViolations: [{ field: "x", description: "bad" }] });
    const detailed = toConnectError(new ConnectError("bad x", Code.InvalidArgument, undefined, [{ desc: BadRequestSchema, value: violations }]));
    expect(detailed.details).toHaveLength(1);
    expect(detailed.findDetails(ErrorInfoSchema)).toEqual([]);
    expect(detailed.findDetails(BadRequestSchema)).toEqual([expect.objectContaining({ fieldViolations: [expect.objectContaining({ field: "x" })] })]);
  });
});
