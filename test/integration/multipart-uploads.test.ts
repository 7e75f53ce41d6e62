import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reasonOf } from "../support/errors.js";
import { runCli } from "../support/cli-process.js";
import { apiUrl, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { apiCounter, csvOf, cut, incompleteUploadsOf, initiateMultipart, MIB, objectReadsCounter, partPutsCounter, putPart, sendParts, sha256, sign, uploadedParts } from "../support/multipart.js";
import { withTemporal } from "../support/stack-access.js";
import { waitForStatus } from "../support/uploads.js";

describe("multipart uploads", () => {
  it("a 20 MB file is initiated in parts, sent in parts and ends READY", { timeout: 120_000 }, async () => {
    const token = await tokenFor(uniqueTenant());
    const bytes = csvOf(20_000_000);
    const started = await initiateMultipart(token, "IMPORT_FILE", "text/csv", bytes.length, { contentSha256: createHash("sha256").update(bytes).digest("hex") });
    expect(started.uploadUrl).toBe("");
    expect(started.multipart).toEqual({ partSize: String(8 * MIB), partCount: 3 });
    const id = started.storedObject.id;
    await sendParts(token, id, cut(bytes, 8 * MIB));
    // Two clients complete at once: storage completes the upload once, and both get one outcome.
    const [done, other] = await Promise.all(
      [1, 2].map(() => rest("POST", `/api/v1/uploads/${id}/complete`, { token, body: { waitForResult: true } })),
    );
    expect(done!.status, JSON.stringify(done!.body)).toBe(200);
    expect(other!.status, JSON.stringify(other!.body)).toBe(200);
    const object = await waitForStatus(token, id, ["READY", "REJECTED"], 60_000);
    expect(object.status, JSON.stringify(object.scanResult)).toBe("READY");
    expect(await incompleteUploadsOf(object.storageKey)).toBe(0);
    expect(object.checksum).toBe(createHash("md5").update(bytes).digest("hex"));
    // The whole file's SHA-256, verified by complete, is kept on the object and in the audit trail.
    const declaredSha256 = createHash("sha256").update(bytes).digest("hex");
    expect(object.contentSha256).toBe(declaredSha256);
    const audit = await rest("GET", `/api/v1/uploads/${id}/audit`, { token });
    const completed = audit.body.auditEntries.filter((e: any) => e.action === "UPLOAD_COMPLETED");
    expect(completed.map((e: any) => e.details.contentSha256)).toEqual([declaredSha256]);
    // A second complete (another client, or a retry) gets the same outcome.
    const again = await rest("POST", `/api/v1/uploads/${id}/complete`, { token, body: { waitForResult: true } });
    expect(again.status).toBe(200);
    expect(again.body.storedObject.status).toBe("READY");
  });

  it("with nothing declared, the file is read once after it is stored: the scan's read computes its MD5", { timeout: 120_000 }, async () => {
    const token = await tokenFor(uniqueTenant());
    const bytes = csvOf(20_000_000);
    const id = (await initiateMultipart(token, "IMPORT_FILE", "text/csv", bytes.length)).storedObject.id;
    await sendParts(token, id, cut(bytes, 8 * MIB));
    const reads = await objectReadsCounter();
    const before = await reads();
    const done = await rest("POST", `/api/v1/uploads/${id}/complete`, { token, body: {} });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const object = await waitForStatus(token, id, ["READY", "REJECTED"], 60_000);
    expect(object.status, JSON.stringify(object.scanResult)).toBe("READY");
    expect(object.checksum).toBe(createHash("md5").update(bytes).digest("hex"));
    // Complete's one-byte probe that the object exists, the scan's ranged read of the magic bytes,
    // then its single stream; complete used to stream the whole file for its MD5 before that.
    expect(await reads()).toBe(before + 3);
    const audit = await rest("GET", `/api/v1/uploads/${id}/audit`, { token });
    expect(audit.body.auditEntries.find((e: any) => e.action === "UPLOAD_COMPLETED").details).not.toHaveProperty("checksum");
  });

  it("a client that does not accept multipart gets one PUT URL for the same size, as before", async () => {
    const token = await tokenFor(uniqueTenant());
    const res = await rest("POST", "/api/v1/uploads/initiate", {
      token,
      body: { objectClass: "IMPORT_FILE", ownerEntityType: "Loan", ownerEntityId: "l-1", originalFilename: "big.csv", contentType: "text/csv", fileSize: 20 * MIB },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.multipart).toBeUndefined();
    expect(res.body.uploadUrl).toMatch(/^http/);
  });

  it("an interrupted upload resumes: storage lists the parts it holds and only the missing ones are sent", { timeout: 120_000 }, async () => {
    const token = await tokenFor(uniqueTenant());
    const bytes = csvOf(30 * MIB + 123);
    const started = await initiateMultipart(token, "IMPORT_FILE", "text/csv", bytes.length);
    const id = started.storedObject.id;
    const parts = cut(bytes, Number(started.multipart.partSize));
    expect(parts).toHaveLength(4);
    const puts = await partPutsCounter();
    const before = await puts();
    const resumedBefore = await apiCounter("uploads_resumed_total");
    await sendParts(token, id, parts.slice(0, 2));
    // The client crashed here. Resumed, it asks storage what it holds.
    const held = await uploadedParts(token, id);
    expect((await apiCounter("uploads_resumed_total")) - resumedBefore).toBeGreaterThanOrEqual(1);
    expect(held.map((p) => [p.partNumber, Number(p.size)])).toEqual([
      [1, 8 * MIB],
      [2, 8 * MIB],
    ]);
    expect(held[0]!.checksumSha256).toBe(sha256(parts[0]!.bytes));
    const missing = parts.filter((p) => !held.some((h) => h.partNumber === p.partNumber));
    await sendParts(token, id, missing);
    expect((await puts()) - before).toBe(4);
    const done = await rest("POST", `/api/v1/uploads/${id}/complete`, { token, body: { waitForResult: true } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const object = await waitForStatus(token, id, ["READY", "REJECTED"], 60_000);
    expect(object.status).toBe("READY");
    expect(Number(object.fileSize)).toBe(bytes.length);
  });

  it("the whole file's SHA-256 declared at initiate is verified: other bytes are refused and removed", { timeout: 60_000 }, async () => {
    const token = await tokenFor(uniqueTenant());
    const bytes = csvOf(17 * MIB);
    const declared = createHash("sha256").update(csvOf(17 * MIB - 1)).digest("hex");
    const started = await initiateMultipart(token, "IMPORT_FILE", "text/csv", bytes.length, { contentSha256: declared });
    const id = started.storedObject.id;
    await sendParts(token, id, cut(bytes, Number(started.multipart.partSize)));
    const done = await rest("POST", `/api/v1/uploads/${id}/complete`, { token, body: { waitForResult: true } });
    expect(done.status).toBe(400);
    expect(reasonOf(done.body)).toBe("CHECKSUM_MISMATCH");
    expect((await rest("GET", `/api/v1/uploads/${id}`, { token })).status).toBe(404);
  });

  it("an operator lists the multipart uploads in progress by the UploadMode search attribute", async () => {
    const tenant = uniqueTenant("mode");
    const token = await tokenFor(tenant);
    const multipart = await initiateMultipart(token, "IMPORT_FILE", "text/csv", 20 * MIB);
    const single = await rest("POST", "/api/v1/uploads/initiate", {
      token,
      body: { objectClass: "IMPORT_FILE", ownerEntityType: "Loan", ownerEntityId: "l-1", originalFilename: "small.csv", contentType: "text/csv", fileSize: 1000, acceptMultipart: true },
    });
    expect(single.body.multipart).toBeUndefined();
    const listed = (query: string) =>
      withTemporal(async (client) => {
        const ids: string[] = [];
        for await (const w of client.workflow.list({ query: `TenantId = "${tenant}" AND ${query}` })) ids.push(w.workflowId);
        return ids.sort();
      });
    const workflowOf = (object: { id: string }) => `object-${tenant}-${object.id}`;
    await expect.poll(() => listed(`UploadMode = "MULTIPART" AND ObjectStatus = "PENDING_UPLOAD"`)).toEqual([workflowOf(multipart.storedObject)]);
    await expect.poll(() => listed(`UploadMode = "SINGLE_PUT"`)).toEqual([workflowOf(single.body.storedObject)]);
    // The history says so too: the run's input and summary name the multipart upload.
    const summary = await withTemporal(async (client) => (await client.workflow.getHandle(workflowOf(multipart.storedObject)).describe()).staticSummary());
    expect(summary).toMatch(/^multipart upload initiated/);
    expect((await rest("POST", `/api/v1/uploads/${multipart.storedObject.id}/abort`, { token, body: {} })).status).toBe(200);
  });

  it("storage refuses a part whose bytes do not match its declared SHA-256", async () => {
    const token = await tokenFor(uniqueTenant());
    const started = await initiateMultipart(token, "IMPORT_FILE", "text/csv", 20 * MIB);
    const part = { partNumber: 1, bytes: csvOf(8 * MIB) };
    const [signed] = await sign(token, started.storedObject.id, [part]);
    const corrupted = Buffer.from(part.bytes);
    corrupted[100] = 0x41;
    const res = await putPart(signed!, corrupted);
    expect(res.status).toBe(400);
    expect(await uploadedParts(token, started.storedObject.id)).toEqual([]);
  });

  it("refuses to complete when the parts add up to more than the class allows", { timeout: 60_000 }, async () => {
    const token = await tokenFor(uniqueTenant());
    // LOAN_DOCUMENT: at most 20 MiB. Declared 17 MiB, sent 24 MiB in three 8 MiB parts.
    const started = await initiateMultipart(token, "LOAN_DOCUMENT", "application/pdf", 17 * MIB);
    const id = started.storedObject.id;
    await sendParts(token, id, cut(new Uint8Array(24 * MIB), 8 * MIB));
    const done = await rest("POST", `/api/v1/uploads/${id}/complete`, { token, body: { waitForResult: true } });
    expect(done.status).toBe(400);
    expect(reasonOf(done.body)).toBe("FILE_TOO_LARGE");
    const object = await rest("GET", `/api/v1/uploads/${id}`, { token });
    expect(object.body.storedObject.status).toBe("PENDING_UPLOAD");
    expect(await incompleteUploadsOf(started.storedObject.storageKey)).toBe(1);
  });

  it("AbortUpload ends the upload: storage drops its parts and the object is gone", async () => {
    const token = await tokenFor(uniqueTenant());
    const started = await initiateMultipart(token, "IMPORT_FILE", "text/csv", 20 * MIB);
    const id = started.storedObject.id;
    const signedBefore = await apiCounter("upload_parts_signed_total");
    const abortedBefore = await apiCounter("multipart_uploads_aborted_total", 'by="client"');
    await sendParts(token, id, [{ partNumber: 1, bytes: csvOf(8 * MIB) }]);
    expect(await incompleteUploadsOf(started.storedObject.storageKey)).toBe(1);
    const aborted = await rest("POST", `/api/v1/uploads/${id}/abort`, { token, body: {} });
    expect(aborted.status, JSON.stringify(aborted.body)).toBe(200);
    expect((await apiCounter("upload_parts_signed_total")) - signedBefore).toBeGreaterThanOrEqual(1);
    expect((await apiCounter("multipart_uploads_aborted_total", 'by="client"')) - abortedBefore).toBeGreaterThanOrEqual(1);
    expect(await incompleteUploadsOf(started.storedObject.storageKey)).toBe(0);
    expect((await rest("GET", `/api/v1/uploads/${id}`, { token })).status).toBe(404);
  });

  it("the CLI's upload, run again after an interruption, sends only the parts storage lacks", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cli-multipart-"));
    try {
      const token = await tokenFor(uniqueTenant("cli"));
      const file = path.join(dir, "import.csv");
      const bytes = csvOf(20_000_000);
      writeFileSync(file, bytes);
      // The interrupted first run: initiated, two of three parts sent, its state file left behind.
      const started = await initiateMultipart(token, "IMPORT_FILE", "text/csv", bytes.length);
      const id = started.storedObject.id;
      const partSize = Number(started.multipart.partSize);
      await sendParts(token, id, cut(bytes, partSize).slice(0, 2));
      writeFileSync(`${file}.upload-state.json`, JSON.stringify({ objectId: id, size: bytes.length, mtimeMs: statSync(file).mtimeMs, partSize }));
      const puts = await partPutsCounter();
      const before = await puts();
      const run = await runCli(["upload", file, "--class", "IMPORT_FILE", "--owner-type", "Loan", "--owner-id", "l-1", "--wait", "--json"], { API_URL: apiUrl(), TOKEN: token });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("1 missing parts sent");
      expect((await puts()) - before).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({ id, status: "READY", fileSize: String(bytes.length) });
      expect(existsSync(`${file}.upload-state.json`)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
