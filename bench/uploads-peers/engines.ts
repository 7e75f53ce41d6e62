/**
 * One upload by each engine of the uploads-peers group, as a client process calls it
 * (bench/peer-clients/client-process.ts). An upload counts for ours when CompleteUpload with
 * waitForResult answered READY (initiate, PUT to the signed URL, complete: bench/uploads.ts); for
 * tusd when it answered the final PATCH (the bytes are in S3, the multipart upload completed); for
 * direct when PutObject answered.
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { Client } from "@temporalio/client";
import { randomUUID } from "node:crypto";
import type { MalwareScanner } from "../../src/app/files/lifecycle/port.js";
import { lifecycleWorkflowId } from "../../src/domain/files/stored-object.js";
import { floorUpload, type FloorTarget } from "../temporal-floor/floor-upload.js";
import { fileOfSize, largePdf, photoPng } from "../scan-files.js";
import type { Api } from "../support.js";
import { tusUpload } from "../tus.js";
import { uploadThrough, type UploadSpec, type UploadStepTimes } from "../uploads.js";

const MiB = 1024 * 1024;

/**
 * `floor`: the Temporal calls of an upload on an empty workflow of the same shape (bench/temporal-floor).
 * `readback`: a direct PutObject, then every byte read back with GetObject, as a scan that looks
 * at every byte must (the PDF checks do): what any engine that checks the whole file pays in I/O.
 * `clamd`: the same bytes streamed to clamd alone (INSTREAM), no storage: the malware engine's own cost.
 * `readback-clamd`: a direct PutObject, then its bytes read back straight into clamd's INSTREAM:
 * the least any upload scanned for malware from storage can cost, the peer of ours at 8 MiB.
 */
export type EngineName = "ours" | "floor" | "tusd" | "direct" | "readback" | "clamd" | "readback-clamd";

export interface Payload {
  label: string;
  bytes: Uint8Array;
  contentType: string;
  filename: string;
}

/** The two files of the group, built alike in every process. */
export type PayloadSize = "small" | "large";

export function payloadOf(size: PayloadSize): Payload {
  if (size === "small") {
    const png = photoPng();
    return { label: `${Math.round(png.length / 1000)} KB PNG`, bytes: png, contentType: "image/png", filename: "photo.png" };
  }
  return { label: "8 MiB PDF", bytes: fileOfSize(8 * MiB, largePdf), contentType: "application/pdf", filename: "big.pdf" };
}

export type Outcome = ({ ready: true; workflowId?: string } | { ready: false; objectId: string; status: string }) & { steps?: UploadStepTimes };

/** What a client process needs to call every engine. */
export interface EngineTargets {
  api: Api;
  s3: S3Client;
  bucket: string;
  tusdFilesUrl: string;
  temporal: Client;
  floor: FloorTarget;
  scanner: MalwareScanner;
}

export function engineUpload(targets: EngineTargets, engine: EngineName, file: Payload): (index: number) => Promise<Outcome> {
  switch (engine) {
    case "ours":
      return async (index) => {
        const spec: UploadSpec = { objectClass: "GENERAL_DOCUMENT", contentType: file.contentType, bytes: file.bytes, filename: file.filename, ownerEntityId: `peer-${index}` };
        const steps: UploadStepTimes = { initiateMs: 0, putMs: 0, completeMs: 0 };
        const object = await uploadThrough(targets.api, spec, steps);
        // The workflow id is derived from tenant and object; the API may name it too.
        const workflowId = object.workflowId || lifecycleWorkflowId(targets.api.tenant, object.id);
        return object.status === "READY" ? { ready: true, workflowId, steps } : { ready: false, objectId: object.id, status: object.status, steps };
      };
    case "floor":
      return async () => ({ ready: true, workflowId: await floorUpload(targets.temporal, targets.floor) });
    case "tusd":
      return async () => {
        await tusUpload(targets.tusdFilesUrl, file.bytes, { filename: file.filename, filetype: file.contentType });
        return { ready: true };
      };
    case "direct":
      return async () => {
        await targets.s3.send(directPut(targets.bucket, file));
        return { ready: true };
      };
    case "readback":
      return async () => {
        let bytes = 0;
        for await (const chunk of await putAndReadBack(targets, file)) bytes += chunk.length;
        if (bytes !== file.bytes.length) throw new Error(`read back ${bytes} of ${file.bytes.length} bytes`);
        return { ready: true };
      };
    case "clamd":
      return async () => {
        await scanClean(targets.scanner, oneChunk(file.bytes));
        return { ready: true };
      };
    case "readback-clamd":
      return async () => {
        await scanClean(targets.scanner, await putAndReadBack(targets, file));
        return { ready: true };
      };
  }
}

async function putAndReadBack(targets: EngineTargets, file: Payload): Promise<AsyncIterable<Uint8Array>> {
  const put = directPut(targets.bucket, file);
  await targets.s3.send(put);
  const got = await targets.s3.send(new GetObjectCommand({ Bucket: targets.bucket, Key: put.input.Key }));
  return got.Body as AsyncIterable<Uint8Array>;
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

async function scanClean(scanner: MalwareScanner, bytes: AsyncIterable<Uint8Array>): Promise<void> {
  const { verdict } = await scanner.scan(bytes);
  if (verdict !== "clean") throw new Error(`clamd answered ${verdict} for a clean file`);
}

/**
 * The direct peers' PutObject with its payload unsigned (`x-amz-content-sha256: UNSIGNED-PAYLOAD`,
 * which the SigV4 signer takes as given), as our presigned PUT and tusd (-s3-disable-content-hashes)
 * send theirs: over plain HTTP the SDK would otherwise hash every byte to sign it.
 */
export function directPut(bucket: string, file: Payload): PutObjectCommand {
  const command = new PutObjectCommand({
    Bucket: bucket,
    Key: `bench-peers-direct/${randomUUID()}`,
    Body: file.bytes,
    ContentType: file.contentType,
    ContentLength: file.bytes.length,
    ServerSideEncryption: "AES256",
    IfNoneMatch: "*",
  });
  command.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers["x-amz-content-sha256"] = "UNSIGNED-PAYLOAD";
      return next(args);
    },
    { step: "build", name: "benchUnsignedPayload" },
  );
  return command;
}
