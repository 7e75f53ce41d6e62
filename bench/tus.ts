/**
 * A minimal tus 1.0.0 client for the peer benchmark: POST creates the upload (Upload-Length), one
 * PATCH at offset 0 sends all the bytes. tusd answers the final PATCH with 204 only after its S3
 * store has the bytes (the last part uploaded and the multipart upload completed), so that answer
 * is "stored". node:http, as our own flow's PUT uses (bench/http-send.ts), so both peers share a client.
 */

import { httpSend } from "./http-send.js";

const TUS = { "tus-resumable": "1.0.0" };

/** POST to the creation URL; the upload's own URL. */
export async function tusCreate(filesUrl: string, length: number, metadata?: Record<string, string>): Promise<string> {
  const headers: Record<string, string> = { ...TUS, "upload-length": String(length) };
  if (metadata) {
    headers["upload-metadata"] = Object.entries(metadata)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString("base64")}`)
      .join(",");
  }
  const res = await fetch(filesUrl, { method: "POST", headers });
  const text = await res.text();
  const location = res.headers.get("location");
  if (res.status !== 201 || !location) throw new Error(`tus POST: ${res.status} ${text.slice(0, 300)}`);
  return new URL(location, filesUrl).toString();
}

/** The one PATCH of all the bytes at offset 0; resolves when tusd answered with the final offset. */
export async function tusPatch(uploadUrl: string, bytes: Uint8Array): Promise<void> {
  const res = await httpSend("PATCH", uploadUrl, { ...TUS, "upload-offset": "0", "content-type": "application/offset+octet-stream" }, bytes);
  const offset = res.headers["upload-offset"];
  if (res.status !== 204 || offset !== String(bytes.byteLength)) {
    throw new Error(`tus PATCH: ${res.status} offset ${offset} of ${bytes.byteLength} ${res.text.slice(0, 300)}`);
  }
}

export async function tusUpload(filesUrl: string, bytes: Uint8Array, metadata?: Record<string, string>): Promise<void> {
  await tusPatch(await tusCreate(filesUrl, bytes.byteLength, metadata), bytes);
}
