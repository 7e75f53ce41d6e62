import { expect } from "vitest";
import { csv } from "../fixtures/files/index.js";
import { rest } from "./clients.js";
import { sql } from "./stack-access.js";

export interface UploadSpec {
  objectClass: string;
  contentType: string;
  bytes: Uint8Array;
  filename?: string;
  ownerEntityType?: string;
  ownerEntityId?: string;
  checksum?: string;
}

export async function initiate(token: string, spec: UploadSpec, size = spec.bytes.length) {
  const res = await rest("POST", "/api/v1/uploads/initiate", {
    token,
    body: {
      objectClass: spec.objectClass,
      ownerEntityType: spec.ownerEntityType ?? "User",
      ownerEntityId: spec.ownerEntityId ?? "owner-1",
      originalFilename: spec.filename ?? "file.bin",
      contentType: spec.contentType,
      fileSize: size,
    },
  });
  return res;
}

/** The client's PUT straight to the storage backend, with the headers the API said to send. */
export async function put(upload: { uploadUrl: string; uploadHeaders: Record<string, string> }, bytes: Uint8Array, override: Record<string, string> = {}) {
  const headers = { ...upload.uploadHeaders, ...override };
  delete (headers as Record<string, string>)["content-length"];
  return fetch(upload.uploadUrl, { method: "PUT", headers, body: Buffer.from(bytes) });
}

export async function complete(token: string, objectId: string, body: Record<string, unknown> = { waitForResult: true }) {
  return rest("POST", `/api/v1/uploads/${objectId}/complete`, { token, body });
}

/** initiate, PUT, complete with waitForResult: the object as the scan left it. */
export async function uploadThrough(token: string, spec: UploadSpec) {
  const started = await initiate(token, spec);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const stored = await put(started.body, spec.bytes);
  expect(stored.status, await stored.clone().text()).toBe(200);
  const done = await complete(token, started.body.storedObject.id, { waitForResult: true, checksum: spec.checksum });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body.storedObject;
}

export async function waitForStatus(token: string, objectId: string, statuses: string[], timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = await rest("GET", `/api/v1/uploads/${objectId}`, { token });
    if (last.status === 200 && statuses.includes(last.body.storedObject.status)) return last.body.storedObject;
    if (last.status === 404 && statuses.includes("GONE")) return undefined;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`object ${objectId} did not reach ${statuses.join("/")}: ${JSON.stringify(last?.body)}`);
}

export async function waitForGone(token: string, objectId: string, timeoutMs: number) {
  return waitForStatus(token, objectId, ["GONE"], timeoutMs);
}

/** A small CSV of the IMPORT_FILE class (IMPORT_ARTIFACT_90D: a short deadline in the tests). */
export const importFile = (): UploadSpec => ({ objectClass: "IMPORT_FILE", contentType: "text/csv", bytes: csv([["a"], ["1"]]) });

/** The actions of an object's audit trail, oldest first. */
export async function auditActions(objectId: string): Promise<string[]> {
  const rows = await sql<{ action: string }>("select action from audit_entries where object_id = ? order by occurred_at, id", [objectId]);
  return rows.map((r) => r.action);
}
