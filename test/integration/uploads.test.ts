import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ObjectClass, ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { csv, exe, jpeg, pdf, png, svg, webp, xls, xlsx } from "../fixtures/files/index.js";
import { clientsFor, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { reasonOf } from "../support/errors.js";
import { complete, initiate, put, uploadThrough } from "../support/uploads.js";

const PNG = "image/png";
const md5 = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("hex");

describe("upload lifecycle: every class and type ends READY", () => {
  const cases: [string, string, () => Uint8Array][] = [
    ["USER_PROFILE_PHOTO", "image/jpeg", () => jpeg(64, 48)],
    ["USER_PROFILE_PHOTO", PNG, () => png(32, 32)],
    ["USER_PROFILE_PHOTO", "image/webp", () => webp(16, 16)],
    ["COMPANY_LOGO", "image/svg+xml", () => svg('<rect width="10" height="10" fill="red"/>')],
    ["COMPANY_LOGO", PNG, () => png(8, 8)],
    ["CUSTOMER_SIGNATURE", PNG, () => png(200, 80)],
    ["KYC_IDENTITY_DOCUMENT", "application/pdf", () => pdf()],
    ["KYC_SUPPORTING_DOCUMENT", "image/jpeg", () => jpeg(10, 10)],
    ["LOAN_DOCUMENT", "application/pdf", () => pdf()],
    ["IMPORT_FILE", "text/csv", () => csv([["a", "b"], ["1", "2"]])],
    ["IMPORT_FILE", "application/vnd.ms-excel", () => xls()],
    ["IMPORT_FILE", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", () => xlsx()],
    ["STATEMENT", "application/pdf", () => pdf()],
    ["STATEMENT", "text/csv", () => csv([["x"], ["y"]])],
    ["REPORT", "text/csv", () => csv([["k", "v"], ["1", "2"]])],
    ["GENERAL_DOCUMENT", PNG, () => png(4, 4)],
    ["CUSTOMER_PHOTO", "image/webp", () => webp(20, 20)],
  ];
  it.each(cases)("%s as %s", async (objectClass, contentType, bytes) => {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, { objectClass, contentType, bytes: bytes(), ownerEntityId: `o-${objectClass}` });
    expect(object.status, JSON.stringify(object.scanResult)).toBe("READY");
    expect(object.scanResult.passed).toBe(true);
    expect(object.scanResult.checks.length).toBeGreaterThan(0);
  });
});

describe("initiate", () => {
  it("returns the signed URL, its expiry, the headers to send and a PENDING_UPLOAD object", async () => {
    const tenant = uniqueTenant();
    const res = await initiate(await tokenFor(tenant), { objectClass: "USER_PROFILE_PHOTO", contentType: PNG, bytes: png(2, 2) });
    expect(res.status).toBe(200);
    expect(res.body.storedObject.status).toBe("PENDING_UPLOAD");
    expect(res.body.storedObject.storageKey).toBe(`tenants/${tenant}/User/owner-1/${res.body.storedObject.id}`);
    expect(res.body.storedObject.retentionPolicy).toBe("TEMP_UPLOAD_24H");
    expect(res.body.uploadHeaders).toMatchObject({ "content-type": PNG, "x-amz-server-side-encryption": "AES256", "if-none-match": "*" });
    expect(new Date(res.body.uploadUrlExpiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(res.body.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

});

describe("the storage backend enforces the signed PUT", () => {
  const spec = { objectClass: "GENERAL_DOCUMENT", contentType: PNG, bytes: png(3, 3) };

  it("refuses another content type", async () => {
    const started = await initiate(await tokenFor(uniqueTenant()), spec);
    const res = await put(started.body, spec.bytes, { "content-type": "text/html" });
    expect(res.status).toBe(403);
  });

  it("refuses bytes of another size", async () => {
    const started = await initiate(await tokenFor(uniqueTenant()), spec);
    const res = await put(started.body, new Uint8Array([...spec.bytes, 0, 0, 0])).catch(() => ({ status: 0 }));
    expect(res.status).not.toBe(200);
  });

  it("refuses the signature used for another key", async () => {
    const started = await initiate(await tokenFor(uniqueTenant()), spec);
    const url = new URL(started.body.uploadUrl);
    url.pathname = url.pathname.replace(started.body.storedObject.id, "00000000-0000-7000-8000-000000000000");
    const res = await put({ ...started.body, uploadUrl: url.toString() }, spec.bytes);
    expect(res.status).toBe(403);
  });

  it("binds a checksum declared at initiate: other bytes of the same size are refused", async () => {
    const token = await tokenFor(uniqueTenant());
    const bytes = png(3, 3);
    const other = new Uint8Array(bytes);
    other[other.length - 20] ^= 0xff;
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    for (const declared of [{ contentMd5: md5(bytes) }, { contentSha256: sha256 }]) {
      const res = await rest("POST", "/api/v1/uploads/initiate", {
        token,
        body: { objectClass: "GENERAL_DOCUMENT", ownerEntityType: "User", ownerEntityId: "sum", originalFilename: "a.png", contentType: PNG, fileSize: bytes.length, ...declared },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.uploadHeaders)).toContain("contentMd5" in declared ? "content-md5" : "x-amz-checksum-sha256");
      expect((await put(res.body, other)).status, JSON.stringify(declared)).toBeGreaterThanOrEqual(400);
      expect((await put(res.body, bytes)).status, JSON.stringify(declared)).toBe(200);
    }
  });

  it("refuses a second PUT over an uploaded object (no overwrite)", async () => {
    const started = await initiate(await tokenFor(uniqueTenant()), spec);
    expect((await put(started.body, spec.bytes)).status).toBe(200);
    expect((await put(started.body, spec.bytes)).status).toBe(412);
  });
});

describe("complete", () => {
  const spec = () => ({ objectClass: "GENERAL_DOCUMENT", contentType: PNG, bytes: png(5, 5) });

  it("keeps the SHA-256 declared at initiate, which storage checked, on the READY object and in UPLOAD_COMPLETED", async () => {
    const token = await tokenFor(uniqueTenant());
    const bytes = png(4, 4);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const started = await rest("POST", "/api/v1/uploads/initiate", {
      token,
      body: { objectClass: "GENERAL_DOCUMENT", ownerEntityType: "User", ownerEntityId: "sum", originalFilename: "a.png", contentType: PNG, fileSize: bytes.length, contentSha256: sha256.toUpperCase() },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((await put(started.body, bytes)).status).toBe(200);
    const id = started.body.storedObject.id;
    const done = await complete(token, id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.storedObject).toMatchObject({ status: "READY", contentSha256: sha256 });
    expect((await rest("GET", `/api/v1/uploads/${id}`, { token })).body.storedObject.contentSha256).toBe(sha256);
    const audit = await rest("GET", `/api/v1/uploads/${id}/audit`, { token });
    const completed = audit.body.auditEntries.find((e: any) => e.action === "UPLOAD_COMPLETED");
    expect(completed?.details).toMatchObject({ contentSha256: sha256, checksum: md5(bytes) });
  });

  it("keeps no SHA-256 when none was declared", async () => {
    const object = await uploadThrough(await tokenFor(uniqueTenant()), spec());
    expect(object.status).toBe("READY");
    expect(object.contentSha256 ?? "").toBe("");
  });

  it("answers 400 UPLOAD_MISSING when nothing was uploaded, and the object stays PENDING_UPLOAD", async () => {
    const token = await tokenFor(uniqueTenant());
    const started = await initiate(token, spec());
    const res = await complete(token, started.body.storedObject.id, {});
    expect(res.status).toBe(400);
    expect(reasonOf(res.body)).toBe("UPLOAD_MISSING");
    const get = await rest("GET", `/api/v1/uploads/${started.body.storedObject.id}`, { token });
    expect(get.body.storedObject.status).toBe("PENDING_UPLOAD");
  });

  it("answers 400 UPLOAD_URL_EXPIRED when the URL expired with nothing uploaded; a refreshed URL works", { timeout: 30_000 }, async () => {
    const token = await tokenFor(uniqueTenant());
    const s = spec();
    const started = await initiate(token, s);
    const id = started.body.storedObject.id;
    await new Promise((r) => setTimeout(r, 10_500));
    expect((await put(started.body, s.bytes)).status).toBe(403);
    const res = await complete(token, id, {});
    expect(res.status).toBe(400);
    expect(reasonOf(res.body)).toBe("UPLOAD_URL_EXPIRED");
    const refreshed = await rest("POST", `/api/v1/uploads/${id}/refresh-upload-url`, { token, body: {} });
    expect(refreshed.status).toBe(200);
    expect((await put(refreshed.body, s.bytes)).status).toBe(200);
    const done = await complete(token, id, { waitForResult: true });
    expect(done.body.storedObject.status).toBe("READY");
    const audit = await rest("GET", `/api/v1/uploads/${id}/audit`, { token });
    expect(audit.body.auditEntries.map((e: any) => e.action)).toContain("UPLOAD_URL_REFRESHED");
  });

  it("removes the file and answers 400 CHECKSUM_MISMATCH when the checksum differs", async () => {
    const token = await tokenFor(uniqueTenant());
    const s = spec();
    const started = await initiate(token, s);
    await put(started.body, s.bytes);
    const res = await complete(token, started.body.storedObject.id, { checksum: "0".repeat(32) });
    expect(res.status).toBe(400);
    expect(reasonOf(res.body)).toBe("CHECKSUM_MISMATCH");
    expect((await rest("GET", `/api/v1/uploads/${started.body.storedObject.id}`, { token })).status).toBe(404);
  });

  it("refuses a stranger's complete with a wrong checksum (403, nothing changes, nothing deleted); the initiator then completes", async () => {
    const tenant = uniqueTenant();
    const uploader = ["stored_object:CREATE", "stored_object:READ"];
    const alice = await tokenFor(tenant, { user: "alice", perms: uploader });
    const mallory = await tokenFor(tenant, { user: "mallory", perms: uploader });
    const s = spec();
    const started = await initiate(alice, s);
    const id = started.body.storedObject.id;
    await put(started.body, s.bytes);

    const refused = await complete(mallory, id, { checksum: "0".repeat(32) });
    expect([refused.status, refused.body.code, reasonOf(refused.body)]).toEqual([403, "permission_denied", "PERMISSION_DENIED"]);
    const after = await rest("GET", `/api/v1/uploads/${id}`, { token: alice });
    expect(after.body.storedObject.status).toBe("PENDING_UPLOAD");

    // The stored bytes are the uploaded ones: complete reads them back and checks their MD5.
    const done = await complete(alice, id, { checksum: md5(s.bytes), waitForResult: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.storedObject).toMatchObject({ status: "READY", checksum: md5(s.bytes) });
  });

  it("accepts the right checksum, returns SCANNING without waiting, and a second complete returns the object as it is", async () => {
    const token = await tokenFor(uniqueTenant());
    // A CSV is scanned by the worker after complete (an image would be scanned inside it and
    // answer READY), so the answer that does not wait is the SCANNING row.
    const s = { objectClass: "REPORT", contentType: "text/csv", bytes: csv([["a", "b"], ["1", "2"]]) };
    const started = await initiate(token, s);
    await put(started.body, s.bytes);
    const first = await complete(token, started.body.storedObject.id, { checksum: md5(s.bytes) });
    expect(first.status).toBe(200);
    expect(first.body.storedObject.status).toBe("SCANNING");
    expect(first.body.storedObject.checksum).toBe(md5(s.bytes));
    const second = await complete(token, started.body.storedObject.id, { waitForResult: true });
    expect(second.status).toBe(200);
    expect(second.body.storedObject.status).toBe("READY");
  });

  it("works over gRPC with a typed client", async () => {
    const token = await tokenFor(uniqueTenant());
    const { files } = clientsFor("grpc", token);
    const bytes = png(6, 6);
    const started = await files.initiateUpload({
      objectClass: ObjectClass.GENERAL_DOCUMENT, ownerEntityType: "Customer", ownerEntityId: "c-1", originalFilename: "x.png", contentType: PNG, fileSize: BigInt(bytes.length),
    });
    expect((await put(started, bytes)).status).toBe(200);
    const done = await files.completeUpload({ objectId: started.storedObject!.id, waitForResult: true });
    expect(done.storedObject!.status).toBe(ObjectStatus.READY);
  });
});

describe("scan rejects what the bytes deserve", () => {
  it("rejects an executable declared as PNG", async () => {
    const object = await uploadThrough(await tokenFor(uniqueTenant()), { objectClass: "USER_PROFILE_PHOTO", contentType: PNG, bytes: exe(), filename: "me.png" });
    expect(object.status).toBe("REJECTED");
    expect(object.retentionPolicy).toBe("FAILED_UPLOAD_7D");
    expect(object.scanResult.checks.find((c: any) => c.name === "magic_bytes").passed).toBe(false);
  });

  it("rejects an SVG with a script", async () => {
    const object = await uploadThrough(await tokenFor(uniqueTenant()), {
      objectClass: "COMPANY_LOGO", contentType: "image/svg+xml", bytes: svg("<script>alert(1)</script>"),
    });
    expect(object.status).toBe("REJECTED");
    expect(object.scanResult.checks.find((c: any) => !c.passed).reason).toBe("SVG_SCRIPT");
  });

  it("rejects a PNG claiming 100000 x 100000 without decoding it", async () => {
    const object = await uploadThrough(await tokenFor(uniqueTenant()), {
      objectClass: "USER_PROFILE_PHOTO", contentType: PNG, bytes: png(100_000, 100_000),
    });
    expect(object.status).toBe("REJECTED");
    expect(object.scanResult.checks.find((c: any) => !c.passed).reason).toBe("DIMENSIONS_TOO_LARGE");
    expect(Number(object.scanResult.bytesRead)).toBeLessThan(64 * 1024);
  });
});

describe("reads, downloads and deletes", () => {
  it("issues a download URL for READY objects only, with the file name in Content-Disposition", async () => {
    const token = await tokenFor(uniqueTenant());
    const bytes = pdf();
    const object = await uploadThrough(token, { objectClass: "REPORT", contentType: "application/pdf", bytes, filename: "Résumé 2026.pdf" });
    const res = await rest("POST", `/api/v1/uploads/${object.id}/download-url`, { token });
    expect(res.status).toBe(200);
    expect(res.body.fileSize).toBe(String(bytes.length));
    const download = await fetch(res.body.downloadUrl);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    expect(download.headers.get("content-disposition")).toContain("attachment");
    expect(download.headers.get("content-disposition")).toContain("filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf");
    const inline = await rest("POST", `/api/v1/uploads/${object.id}/download-url?disposition=inline`, { token });
    expect((await fetch(inline.body.downloadUrl)).headers.get("content-disposition")).toMatch(/^inline/);
  });

  it("lists an owner's objects with filters and pagination", async () => {
    const token = await tokenFor(uniqueTenant());
    for (let i = 0; i < 3; i++) {
      await uploadThrough(token, { objectClass: "GENERAL_DOCUMENT", contentType: PNG, bytes: png(i + 1, 1), ownerEntityId: "lister" });
    }
    await initiate(token, { objectClass: "GENERAL_DOCUMENT", contentType: PNG, bytes: png(4, 4), ownerEntityId: "other" });
    const first = await rest("GET", "/api/v1/uploads?ownerEntityType=User&ownerEntityId=lister&pageSize=2", { token });
    expect(first.body.storedObjects).toHaveLength(2);
    expect(first.body.nextPageToken).not.toBe("");
    const second = await rest("GET", `/api/v1/uploads?ownerEntityType=User&ownerEntityId=lister&pageSize=2&pageToken=${first.body.nextPageToken}`, { token });
    expect(second.body.storedObjects).toHaveLength(1);
    expect(second.body.nextPageToken).toBe("");
    const ready = await rest("GET", "/api/v1/uploads?status=READY&isCurrent=true", { token });
    expect(ready.body.storedObjects).toHaveLength(3);
  });

  it("deletes: the row resolves as not found and the bucket object is gone", async () => {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, { objectClass: "GENERAL_DOCUMENT", contentType: PNG, bytes: png(4, 4) });
    const url = (await rest("POST", `/api/v1/uploads/${object.id}/download-url`, { token })).body.downloadUrl;
    expect((await rest("DELETE", `/api/v1/uploads/${object.id}`, { token })).status).toBe(200);
    expect((await rest("GET", `/api/v1/uploads/${object.id}`, { token })).status).toBe(404);
    expect((await fetch(url)).status).toBe(404);
  });

  it("answers 403 LEGAL_HOLD_ACTIVE on delete under a hold, with nothing changed; release lets delete through", async () => {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, { objectClass: "LOAN_DOCUMENT", contentType: "application/pdf", bytes: pdf() });
    const held = await rest("POST", `/api/v1/uploads/${object.id}/legal-hold`, { token, body: { reason: "litigation 42" } });
    expect(held.status).toBe(200);
    expect(held.body.storedObject.isLegalHold).toBe(true);
    expect(held.body.storedObject.legalHold.reason).toBe("litigation 42");
    const refused = await rest("DELETE", `/api/v1/uploads/${object.id}`, { token });
    expect(refused.status).toBe(403);
    expect(reasonOf(refused.body)).toBe("LEGAL_HOLD_ACTIVE");
    expect((await rest("GET", `/api/v1/uploads/${object.id}`, { token })).body.storedObject.status).toBe("READY");
    expect((await rest("DELETE", `/api/v1/uploads/${object.id}/legal-hold`, { token })).status).toBe(200);
    expect((await rest("DELETE", `/api/v1/uploads/${object.id}`, { token })).status).toBe(200);
    // The trail outlives the object: the refused delete, the release, then the delete.
    const audit = await rest("GET", `/api/v1/uploads/${object.id}/audit`, { token });
    expect(audit.body.auditEntries.slice(-4).map((e: any) => [e.action, e.result])).toEqual([
      ["HOLD_PLACED", "SUCCESS"],
      ["OBJECT_DELETED", "FAILURE"],
      ["HOLD_RELEASED", "SUCCESS"],
      ["OBJECT_DELETED", "SUCCESS"],
    ]);
  });

  it("keeps an audit trail with actor, request id and result", async () => {
    const token = await tokenFor(uniqueTenant(), { user: "alice" });
    const object = await uploadThrough(token, { objectClass: "GENERAL_DOCUMENT", contentType: PNG, bytes: png(4, 4) });
    await rest("POST", `/api/v1/uploads/${object.id}/download-url`, { token, headers: { "x-request-id": "dl-req-1" } });
    const audit = await rest("GET", `/api/v1/uploads/${object.id}/audit`, { token });
    const actions = audit.body.auditEntries.map((e: any) => e.action);
    expect(actions).toEqual(["UPLOAD_INITIATED", "UPLOAD_COMPLETED", "SCAN_PASSED", "DOWNLOAD_URL_ISSUED"]);
    const download = audit.body.auditEntries[3];
    expect(download).toMatchObject({ actorId: "alice", requestId: "dl-req-1", result: "SUCCESS" });
  });
});
