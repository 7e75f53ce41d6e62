/**
 * The file storage service at its contract, in memory: what initiate refuses before anything is
 * started or stored, the states that refuse a call, and tenant scoping of every RPC that takes an
 * object id. Signed URLs, the bucket, the workflow and the scan need the real services
 * (test/integration/uploads.test.ts, hostile.test.ts).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { ObjectClass, ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { AppError } from "../../../src/domain/errors.js";
import { reasonOf, violationsOf } from "../../support/errors.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

let api: InMemoryApi;
let token: string;
beforeEach(async () => {
  api = inMemoryApi();
  token = await api.token("t1");
});

const initiateBody = (overrides: Record<string, unknown> = {}) => ({
  objectClass: "GENERAL_DOCUMENT",
  ownerEntityType: "User",
  ownerEntityId: "owner-1",
  originalFilename: "file.png",
  contentType: "image/png",
  fileSize: 100,
  ...overrides,
});

async function initiated(as = token, overrides: Record<string, unknown> = {}) {
  const res = await api.rest("POST", "/api/v1/uploads/initiate", { token: as, body: initiateBody(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.storedObject;
}

describe("initiate refuses before starting anything", () => {
  it.each([
    ["a file larger than the class allows", { objectClass: "CUSTOMER_SIGNATURE", fileSize: 3 * 1024 * 1024 }, "FILE_TOO_LARGE", "fileSize"],
    ["a content type the class does not allow", { objectClass: "USER_PROFILE_PHOTO", contentType: "application/pdf" }, "CONTENT_TYPE_NOT_ALLOWED", "contentType"],
    ["a file name with control characters", { originalFilename: "a\u0007b.png" }, "VALIDATION_FAILED", "originalFilename"],
    ["a file name with a right-to-left override", { originalFilename: "invoice\u202Egnp.exe" }, "INVALID_FILENAME", "originalFilename"],
    ["a file name with a zero-width space", { originalFilename: "a\u200Bb.png" }, "INVALID_FILENAME", "originalFilename"],
    ["an extension of another format (invoice.pdf.exe as application/pdf)", { originalFilename: "invoice.pdf.exe", contentType: "application/pdf" }, "FILENAME_EXTENSION_MISMATCH", "originalFilename"],
    ["an extension of another checked type (photo.svg as image/png)", { originalFilename: "photo.svg" }, "FILENAME_EXTENSION_MISMATCH", "originalFilename"],
    ["a zero-byte file", { fileSize: 0 }, "VALIDATION_FAILED", "fileSize"],
  ])("%s (400 %s)", async (_case, overrides, reason, field) => {
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: initiateBody(overrides) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_argument");
    expect(reasonOf(res.body)).toBe(reason);
    expect(violationsOf(res.body)).toContain(field);
    expect(api.lifecycle.calls).toEqual([]);
    expect(api.objects.rows.size).toBe(0);
  });

  it("answers a typed client with the enums of the contract", async () => {
    const files = api.client(FileStorageService, token);
    const { storedObject } = await files.initiateUpload({
      objectClass: ObjectClass.CUSTOMER_PHOTO,
      ownerEntityType: "Customer",
      ownerEntityId: "c-1",
      originalFilename: "x.png",
      contentType: "image/png",
      fileSize: 6n,
    });
    const got = await files.getUpload({ objectId: storedObject!.id });
    expect(got.storedObject).toMatchObject({ objectClass: ObjectClass.CUSTOMER_PHOTO, status: ObjectStatus.PENDING_UPLOAD, fileSize: 6n });
    expect(api.lifecycle.calls).toEqual([{ method: "start", objectId: storedObject!.id }]);
  });
});

describe("initiate when the workflow start fails", () => {
  it("withdraws the workflow the failed start may have left, stores nothing and answers unavailable", async () => {
    api.lifecycle.failNextStart = new AppError("DEPENDENCY_UNAVAILABLE", "workflow service unavailable (start workflow)");
    const res = await api.rest("POST", "/api/v1/uploads/initiate", { token, body: initiateBody() });
    expect([res.status, reasonOf(res.body)]).toEqual([503, "DEPENDENCY_UNAVAILABLE"]);
    const [started, withdrawn] = api.lifecycle.calls;
    expect([started.method, withdrawn?.method]).toEqual(["start", "withdraw"]);
    expect(withdrawn.objectId).toBe(started.objectId);
    expect(api.objects.rows.size).toBe(0);
  });
});

describe("file names", () => {
  it("stores the name in NFC and downloads it under the extension of the verified type", async () => {
    const decomposed = "Re\u0301sume\u0301 2026";
    const object = await initiated(token, { objectClass: "REPORT", contentType: "application/pdf", originalFilename: decomposed });
    expect(object.originalFilename).toBe("R\u00e9sum\u00e9 2026");
    api.objects.rows.get(object.id)!.status = "READY";
    const res = await api.rest("POST", `/api/v1/uploads/${object.id}/download-url`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.originalFilename).toBe("R\u00e9sum\u00e9 2026");
    expect(api.storage.downloads.map((d) => d.filename)).toEqual(["R\u00e9sum\u00e9 2026.pdf"]);
  });
});

describe("states that refuse a call", () => {
  it("refuses a download URL for an object that is not READY (400 failed_precondition OBJECT_NOT_READY)", async () => {
    const object = await initiated(token, { objectClass: "REPORT", contentType: "application/pdf", originalFilename: "file.pdf" });
    const res = await api.rest("POST", `/api/v1/uploads/${object.id}/download-url`, { token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("failed_precondition");
    expect(reasonOf(res.body)).toBe("OBJECT_NOT_READY");
  });

  it("answers 403 LEGAL_HOLD_ACTIVE on delete under a hold, with nothing changed; release lets delete through", async () => {
    const object = await initiated(token, { objectClass: "LOAN_DOCUMENT", ownerEntityType: "Loan", contentType: "application/pdf", originalFilename: "file.pdf" });
    const held = await api.rest("POST", `/api/v1/uploads/${object.id}/legal-hold`, { token, body: { reason: "litigation 42" } });
    expect(held.body.storedObject).toMatchObject({ isLegalHold: true, legalHold: { reason: "litigation 42" } });
    const refused = await api.rest("DELETE", `/api/v1/uploads/${object.id}`, { token });
    expect([refused.status, refused.body.code, reasonOf(refused.body)]).toEqual([403, "permission_denied", "LEGAL_HOLD_ACTIVE"]);
    expect(api.objects.rows.get(object.id)).toMatchObject({ deleted: false, status: "PENDING_UPLOAD" });
    expect((await api.rest("DELETE", `/api/v1/uploads/${object.id}/legal-hold`, { token })).status).toBe(200);
    expect((await api.rest("DELETE", `/api/v1/uploads/${object.id}`, { token })).status).toBe(200);
    expect((await api.rest("GET", `/api/v1/uploads/${object.id}`, { token })).status).toBe(404);
  });

  it("refuses releasing a hold that is not there (400 failed_precondition LEGAL_HOLD_NOT_ACTIVE)", async () => {
    const object = await initiated();
    const res = await api.rest("DELETE", `/api/v1/uploads/${object.id}/legal-hold`, { token });
    expect([res.status, res.body.code, reasonOf(res.body)]).toEqual([400, "failed_precondition", "LEGAL_HOLD_NOT_ACTIVE"]);
  });

  it("refuses to restore an object that was not superseded (400 failed_precondition OBJECT_NOT_SUPERSEDED)", async () => {
    const object = await initiated();
    const res = await api.rest("POST", `/api/v1/uploads/${object.id}/restore`, { token, body: {} });
    expect([res.status, reasonOf(res.body)]).toEqual([400, "OBJECT_NOT_SUPERSEDED"]);
  });
});

describe("who may finish an upload", () => {
  const uploaders = (user: string, extra: string[] = []) => api.token("t1", { user, perms: ["stored_object:CREATE", "stored_object:READ", ...extra] });

  it.each([
    ["a complete (with a wrong checksum)", "complete", { checksum: "0".repeat(32) }],
    ["a URL refresh", "refresh-upload-url", {}],
  ])("refuses %s of someone else's upload by a stranger with only upload-create permission (403 PERMISSION_DENIED, nothing moves)", async (_what, action, body) => {
    const object = await initiated(await uploaders("alice"));
    const sessions = api.objects.sessions.length;
    const res = await api.rest("POST", `/api/v1/uploads/${object.id}/${action}`, { token: await uploaders("mallory"), body });
    expect([res.status, res.body.code, reasonOf(res.body)]).toEqual([403, "permission_denied", "PERMISSION_DENIED"]);
    expect(api.lifecycle.calls.map((c) => c.method)).toEqual(["start"]);
    expect(api.objects.sessions.length).toBe(sessions);
    expect(api.objects.rows.get(object.id)).toMatchObject({ status: "PENDING_UPLOAD", deleted: false });
  });

  it("lets the initiator complete, even after a stranger tried", async () => {
    const object = await initiated(await uploaders("alice"));
    await api.rest("POST", `/api/v1/uploads/${object.id}/complete`, { token: await uploaders("mallory"), body: {} });
    const res = await api.rest("POST", `/api/v1/uploads/${object.id}/complete`, { token: await uploaders("alice"), body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(api.lifecycle.calls.map((c) => c.method)).toEqual(["start", "complete"]);
  });

  it("decides by the initiator stored with the first session, not by who refreshed the URL since", async () => {
    const object = await initiated(await uploaders("alice"));
    const admin = await uploaders("admin", ["stored_object:UPDATE"]);
    expect((await api.rest("POST", `/api/v1/uploads/${object.id}/refresh-upload-url`, { token: admin, body: {} })).status).toBe(200);
    const stranger = await api.rest("POST", `/api/v1/uploads/${object.id}/complete`, { token: await uploaders("mallory"), body: {} });
    expect(stranger.status).toBe(403);
    expect((await api.rest("POST", `/api/v1/uploads/${object.id}/complete`, { token: await uploaders("alice"), body: {} })).status).toBe(200);
  });

  it("lets a caller with stored_object:UPDATE complete anyone's upload", async () => {
    const object = await initiated(await uploaders("alice"));
    const res = await api.rest("POST", `/api/v1/uploads/${object.id}/complete`, { token: await uploaders("admin", ["stored_object:UPDATE"]), body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(api.lifecycle.calls.map((c) => c.method)).toEqual(["start", "complete"]);
  });
});

describe("tenant scoping", () => {
  /** Every RPC that takes an object id, as REST calls. */
  const idCalls: [string, string, unknown?][] = [
    ["GET", "/api/v1/uploads/{id}"],
    ["DELETE", "/api/v1/uploads/{id}"],
    ["POST", "/api/v1/uploads/{id}/complete", {}],
    ["POST", "/api/v1/uploads/{id}/refresh-upload-url", {}],
    ["POST", "/api/v1/uploads/{id}/download-url"],
    ["POST", "/api/v1/uploads/{id}/legal-hold", { reason: "x" }],
    ["DELETE", "/api/v1/uploads/{id}/legal-hold"],
    ["POST", "/api/v1/uploads/{id}/restore", {}],
    ["GET", "/api/v1/uploads/{id}/audit"],
  ];

  it.each(idCalls)("%s %s: another tenant's object is 404 OBJECT_NOT_FOUND, worded as for a missing one", async (method, template, body) => {
    const path = (id: string) => template.replace("{id}", id);
    const object = await initiated();
    const missing = "0191e1c6-0000-7000-8000-00000000abcd";
    const other = await api.token("t2");
    const foreign = await api.rest(method, path(object.id), { token: other, body });
    const absent = await api.rest(method, path(missing), { token: other, body });
    expect([foreign.status, foreign.body.code, reasonOf(foreign.body)]).toEqual([404, "not_found", "OBJECT_NOT_FOUND"]);
    expect(foreign.body.message.replace(object.id, "ID")).toBe(absent.body.message.replace(missing, "ID"));
    expect((await api.rest("GET", `/api/v1/uploads/${object.id}`, { token })).body.storedObject).toMatchObject({ status: "PENDING_UPLOAD", isLegalHold: false });
    expect(api.lifecycle.calls.map((c) => c.method)).toEqual(["start"]);
  });
});
