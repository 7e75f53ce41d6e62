/** The upload flow over REST: initiate, PUT to the signed URL, complete (see test/support/uploads.ts). */
import { httpSend } from "./http-send.js";
import { rest, type Api } from "./support.js";

export type { UploadSpec } from "../test/support/uploads.js";
import type { UploadSpec } from "../test/support/uploads.js";

export interface StartedUpload {
  storedObject: { id: string };
  uploadUrl: string;
  uploadHeaders: Record<string, string>;
}

export interface StoredObject {
  id: string;
  status: string;
  workflowId?: string;
  scanResult?: { bytesRead?: string | number };
}

export function initiate(api: Api, spec: Omit<UploadSpec, "bytes">, fileSize: number): Promise<StartedUpload> {
  return rest<StartedUpload>(api, "POST", "/api/v1/uploads/initiate", {
    objectClass: spec.objectClass,
    ownerEntityType: spec.ownerEntityType ?? "User",
    ownerEntityId: spec.ownerEntityId ?? "bench-owner",
    originalFilename: spec.filename ?? "file.bin",
    contentType: spec.contentType,
    fileSize,
  });
}

/** The client's PUT straight to storage with exactly the headers the API named. */
export async function put(upload: StartedUpload, bytes: Uint8Array): Promise<void> {
  const res = await httpSend("PUT", upload.uploadUrl, upload.uploadHeaders, bytes);
  if (res.status !== 200) throw new Error(`PUT to storage: ${res.status} ${res.text.slice(0, 300)}`);
}

export async function complete(api: Api, objectId: string): Promise<StoredObject> {
  const done = await rest<{ storedObject: StoredObject }>(api, "POST", `/api/v1/uploads/${objectId}/complete`, { waitForResult: true });
  return done.storedObject;
}

/** Milliseconds of each call of one upload, filled in by uploadThrough when passed. */
export interface UploadStepTimes {
  initiateMs: number;
  putMs: number;
  completeMs: number;
}

/** initiate, PUT, complete with waitForResult: the object as its scan left it. */
export async function uploadThrough(api: Api, spec: UploadSpec, times?: UploadStepTimes): Promise<StoredObject> {
  const t0 = performance.now();
  const started = await initiate(api, spec, spec.bytes.length);
  const t1 = performance.now();
  await put(started, spec.bytes);
  const t2 = performance.now();
  const object = await complete(api, started.storedObject.id);
  if (times) Object.assign(times, { initiateMs: t1 - t0, putMs: t2 - t1, completeMs: performance.now() - t2 });
  return object;
}

/** The object as it is now (GetUpload). */
export async function getUpload(api: Api, objectId: string): Promise<StoredObject> {
  return (await rest<{ storedObject: StoredObject }>(api, "GET", `/api/v1/uploads/${objectId}`)).storedObject;
}
