/**
 * What the multipart tests share: big valid files, a client's calls in parts, and MinIO's own count
 * of the parts it received and the reads it served.
 */
import { createHash } from "node:crypto";
import { ListMultipartUploadsCommand } from "@aws-sdk/client-s3";
import { expect, inject } from "vitest";
import { minioMetricReader, sumMetric } from "../../bench/minio-metrics.js";
import { rest } from "./clients.js";
import { s3, stackConfig } from "./stack-access.js";

/** A CSV of `size` bytes: rows of 16 bytes, the last one cut short. */
export function csvOf(size: number): Uint8Array {
  const row = Buffer.from("1234567,abcdefg\n");
  const bytes = Buffer.alloc(size);
  for (let at = 0; at < size; at += row.length) row.copy(bytes, at, 0, Math.min(row.length, size - at));
  bytes[size - 1] = 0x0a;
  return bytes;
}

/**
 * UploadPart requests MinIO stored, from its own request metrics (not from a client's word): all
 * it received but those it refused and those the client cancelled on the way (a closed tab).
 */
export async function partPutsCounter(): Promise<() => Promise<number>> {
  const storage = stackConfig().storage;
  const access = { endpoint: storage.endpoint, accessKey: storage.accessKey, secretKey: storage.secretKey };
  const counters = await Promise.all(
    ["minio_api_requests_total", "minio_api_requests_errors_total", "minio_api_requests_canceled_total"].map((metric) => minioMetricReader(access, metric, 'name="putobjectpart"')),
  );
  return async () => {
    const [received, refused, cancelled] = await Promise.all(
      counters.map(async (counter) => {
        const value = await counter.read();
        if (value === undefined) throw new Error(`MinIO request metrics unavailable: ${counter.problem}`);
        return value;
      }),
    );
    return received! - refused! - cancelled!;
  };
}

/**
 * GetObject requests MinIO served (a ranged read is one too), from its own request metrics: how
 * many times the service read a stored object, whatever the code that did it believes.
 */
export async function objectReadsCounter(): Promise<() => Promise<number>> {
  const storage = stackConfig().storage;
  const counter = await minioMetricReader({ endpoint: storage.endpoint, accessKey: storage.accessKey, secretKey: storage.secretKey }, "minio_api_requests_total", 'name="getobject"');
  return async () => {
    const value = await counter.read();
    if (value === undefined) throw new Error(`MinIO request metrics unavailable: ${counter.problem}`);
    return value;
  };
}

export const MIB = 1024 * 1024;
export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("base64");

export async function initiateMultipart(token: string, objectClass: string, contentType: string, fileSize: number, declared: { contentSha256?: string } = {}) {
  const originalFilename = contentType === "text/csv" ? "big.csv" : "big.pdf";
  const res = await rest("POST", "/api/v1/uploads/initiate", {
    token,
    body: { objectClass, ownerEntityType: "Loan", ownerEntityId: "l-1", originalFilename, contentType, fileSize, acceptMultipart: true, ...declared },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export interface Part {
  partNumber: number;
  bytes: Uint8Array;
}

export function cut(bytes: Uint8Array, partSize: number): Part[] {
  const parts: Part[] = [];
  for (let at = 0, n = 1; at < bytes.length; at += partSize, n++) parts.push({ partNumber: n, bytes: bytes.subarray(at, at + partSize) });
  return parts;
}

export async function sign(token: string, objectId: string, parts: Part[], checksums = true) {
  const res = await rest("POST", `/api/v1/uploads/${objectId}/parts/sign`, {
    token,
    body: { parts: parts.map((p) => ({ partNumber: p.partNumber, contentLength: p.bytes.length, ...(checksums && { contentSha256: sha256(p.bytes) }) })) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.parts as { partNumber: number; uploadUrl: string; uploadHeaders: Record<string, string> }[];
}

/** The client's PUT of one part straight to storage, with the headers the API said to send. */
export async function putPart(signed: { uploadUrl: string; uploadHeaders: Record<string, string> }, bytes: Uint8Array) {
  const headers = { ...signed.uploadHeaders };
  delete headers["content-length"];
  return fetch(signed.uploadUrl, { method: "PUT", headers, body: Buffer.from(bytes) });
}

export async function sendParts(token: string, objectId: string, parts: Part[]) {
  for (const signed of await sign(token, objectId, parts)) {
    const res = await putPart(signed, parts.find((p) => p.partNumber === signed.partNumber)!.bytes);
    expect(res.status, await res.text()).toBe(200);
  }
}

export async function uploadedParts(token: string, objectId: string) {
  const res = await rest("GET", `/api/v1/uploads/${objectId}/parts`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.parts ?? []) as { partNumber: number; size: string; etag: string; checksumSha256: string }[];
}

export async function incompleteUploadsOf(key: string): Promise<number> {
  const { client, bucket } = s3();
  try {
    const page = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }));
    return (page.Uploads ?? []).filter((u) => u.Key === key).length;
  } finally {
    client.destroy();
  }
}

/** A counter of the API's own /metrics (METRICS_PORT). */
export async function apiCounter(metric: string, label?: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${inject("stackEnv").METRICS_PORT}/metrics`);
  return sumMetric(await res.text(), metric, label) ?? 0;
}
