/**
 * 11. A 200 MiB multipart upload through our API against the AWS SDK's own multipart upload
 * (`@aws-sdk/lib-storage`'s Upload) of the same file to the same MinIO, and the resume saving.
 *
 * The stack raises GENERAL_DOCUMENT's maximum to the file's size by configuration
 * (STORAGE_CLASS_MAX_FILE_SIZE_BYTES, and the global STORAGE_MAX_FILE_SIZE_BYTES with it).
 *
 * Ours is the CLI's client (src/cli/multipart-upload.ts): initiate with acceptMultipart, each of
 * PART_CONCURRENCY senders hashes a part, has it signed and PUTs it, then complete. The peer is
 * lib-storage with the same part size (our plan's) and the same concurrency, the same bucket
 * settings (SSE AES256), streaming the same file from disk. Runs alternate, the order rotating.
 * Ours is timed until complete answers (the workflow has verified the stored object by then), and
 * separately until the object's final status, which the next run waits for so that a scan never
 * overlaps a timed upload.
 *
 * The resume: an upload stopped at about half of its parts (parts in flight finish), then
 * the same client run again on the same object (ListUploadedParts, the rest). The bytes sent
 * after the interruption are MinIO's count of request bytes it received meanwhile, not the
 * client's word; starting over would send the whole file.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Upload } from "@aws-sdk/lib-storage";
import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { ObjectClass, ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { createNodeClients, type ApiClients } from "@files-and-fields/client/node";
import { createS3Client } from "../src/adapters/s3/s3-object-storage.js";
import { PART_CONCURRENCY, sendMissingParts } from "../src/cli/multipart-upload.js";
import { ProgressBar } from "../src/cli/progress.js";
import { parseConfig } from "../src/config/config.js";
import type { BenchGroup } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { MINIO_REQUESTS_METRIC, MINIO_RECEIVED_BYTES_METRIC, minioMetricReader } from "./minio-metrics.js";
import { mbPerSecond, median, timed } from "./stats.js";
import { apiFor, progress, sleep } from "./support.js";

const MiB = 1024 * 1024;
const FILE_BYTES = 200 * MiB;
const OBJECT_CLASS = "GENERAL_DOCUMENT";
const CONTENT_TYPE = "application/pdf";
const POLL_MS = 200;
const silent = new ProgressBar({ write: () => undefined, isTTY: false }, "bench", FILE_BYTES);

/**
 * A PDF's header, then random bytes to the size: incompressible, written in 1 MiB pieces so the
 * file never sits whole in memory. Its scan ends it REJECTED or READY; only the time to that end is reported.
 */
async function writeFile(file: string): Promise<void> {
  async function* pieces() {
    yield Buffer.from("%PDF-1.7\n");
    let left = FILE_BYTES - 9;
    while (left > 0) {
      const n = Math.min(MiB, left);
      yield randomBytes(n);
      left -= n;
    }
  }
  await pipeline(pieces(), createWriteStream(file));
}

interface Ours {
  files: ApiClients["files"];
}

async function initiate(ours: Ours, owner: string): Promise<{ objectId: string; partSize: number }> {
  const started = await ours.files.initiateUpload({
    objectClass: ObjectClass[OBJECT_CLASS],
    ownerEntityType: "User",
    ownerEntityId: owner,
    originalFilename: "big.pdf",
    contentType: CONTENT_TYPE,
    fileSize: BigInt(FILE_BYTES),
    acceptMultipart: true,
  });
  if (!started.multipart) throw new Error("initiate answered a single PUT for 200 MiB");
  return { objectId: started.storedObject!.id, partSize: Number(started.multipart.partSize) };
}

async function untilFinal(ours: Ours, objectId: string): Promise<string> {
  for (;;) {
    const { storedObject } = await ours.files.getUpload({ objectId });
    const status = storedObject!.status;
    if (status !== ObjectStatus.PENDING_UPLOAD && status !== ObjectStatus.SCANNING) return ObjectStatus[status];
    await sleep(POLL_MS);
  }
}

interface OursRun {
  toCompleteMs: number;
  /** The complete call alone: completing in storage, then the workflow's read of every stored byte. */
  completeMs: number;
  toFinalMs: number;
  status: string;
  partSize: number;
}

async function oursOnce(ours: Ours, file: string, owner: string): Promise<OursRun> {
  const started = performance.now();
  const { objectId, partSize } = await initiate(ours, owner);
  await sendMissingParts(ours.files, objectId, file, FILE_BYTES, partSize, silent);
  const completed = await timed(() => ours.files.completeUpload({ objectId, waitForResult: false }));
  const toCompleteMs = performance.now() - started;
  const status = await untilFinal(ours, objectId);
  return { toCompleteMs, completeMs: completed.ms, toFinalMs: performance.now() - started, status, partSize };
}

async function peerOnce(s3: S3Client, bucket: string, file: string, partSize: number): Promise<{ ms: number; key: string }> {
  const key = `bench-multipart-peer/${randomUUID()}`;
  const upload = new Upload({
    client: s3,
    params: { Bucket: bucket, Key: key, Body: createReadStream(file), ContentType: CONTENT_TYPE, ServerSideEncryption: "AES256" },
    partSize,
    queueSize: PART_CONCURRENCY,
    leavePartsOnError: false,
  });
  return { ms: (await timed(() => upload.done())).ms, key };
}

/** What reading a multipart object for its MD5 costs at the least: one GetObject of every byte, hashed with MD5 (what complete did before the scan computed it). */
async function readBackMs(s3: S3Client, bucket: string, key: string): Promise<number> {
  const { ms } = await timed(async () => {
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const md5 = createHash("md5");
    for await (const chunk of got.Body as AsyncIterable<Uint8Array>) md5.update(chunk);
    md5.digest();
  });
  return ms;
}

/** Our upload stopped after half of its parts, then resumed; MinIO's counts over the resume. */
async function resume(ours: Ours, file: string, received: MetricReader, partPuts: MetricReader) {
  const { objectId, partSize } = await initiate(ours, "resume");
  const partCount = Math.ceil(FILE_BYTES / partSize);
  const stop = new AbortController();
  let sentBefore = 0;
  // The other senders' parts in flight finish after the stop: it comes that many parts early, so
  // that storage holds about half the file when the interrupted call answers.
  const stopAt = FILE_BYTES / 2 - (PART_CONCURRENCY - 1) * partSize;
  const interrupted = await sendMissingParts(ours.files, objectId, file, FILE_BYTES, partSize, silent, {
    signal: stop.signal,
    onPartSent: (_n, bytes) => {
      sentBefore += bytes;
      if (sentBefore >= stopAt) stop.abort(new Error("interrupted at 50%"));
    },
  }).catch((error: unknown) => error);
  if (!(interrupted instanceof Error) || interrupted.message !== "interrupted at 50%") throw new Error(`the interruption did not happen: ${String(interrupted)}`);
  const bytesBefore = await received.read();
  const putsBefore = await partPuts.read();
  const resumed = await timed(() => sendMissingParts(ours.files, objectId, file, FILE_BYTES, partSize, silent));
  const bytesAfter = await received.read();
  const putsAfter = await partPuts.read();
  await ours.files.completeUpload({ objectId, waitForResult: false });
  const status = await untilFinal(ours, objectId);
  if (bytesBefore === undefined || bytesAfter === undefined || putsBefore === undefined || putsAfter === undefined) {
    throw new Error(`MinIO's request metrics are not readable: ${received.problem ?? partPuts.problem}`);
  }
  return { partCount, partsResumed: resumed.value, resumeMs: resumed.ms, bytesAfter: bytesAfter - bytesBefore, partPutsAfter: putsAfter - putsBefore, status };
}

type MetricReader = Awaited<ReturnType<typeof minioMetricReader>>;

export const multipart: BenchGroup = {
  name: "multipart",
  kind: "stack",
  stackEnv: { STORAGE_MAX_FILE_SIZE_BYTES: String(FILE_BYTES), STORAGE_CLASS_MAX_FILE_SIZE_BYTES: `${OBJECT_CLASS}=${FILE_BYTES}` },
  async run({ stack, options }) {
    const storage = parseConfig(stack.env).storage;
    const s3 = createS3Client(storage);
    const api = await apiFor(stack.apiUrl, "bench-multipart");
    const ours: Ours = { files: createNodeClients({ baseUrl: stack.apiUrl, token: api.token, protocol: "connect" }).files };
    const access = { endpoint: storage.endpoint, accessKey: storage.accessKey, secretKey: storage.secretKey };
    const received = await minioMetricReader(access, MINIO_RECEIVED_BYTES_METRIC);
    const partPuts = await minioMetricReader(access, MINIO_REQUESTS_METRIC, 'name="putobjectpart"');
    const file = path.join(stack.dataDir, "multipart-200MiB.pdf");
    try {
      await writeFile(file);
      const runs = options.multipartRuns;
      const oursRuns: OursRun[] = [];
      const peerMs: number[] = [];
      progress(`multipart: 200 MiB, ours vs lib-storage, ${runs} runs each, alternating`);
      // A first upload of each warms the connections and the page cache; it is not counted.
      const warm = await oursOnce(ours, file, "warm");
      const { key: peerKey } = await peerOnce(s3, storage.bucket, file, warm.partSize);
      for (let i = 0; i < runs; i++) {
        const peerFirst = i % 2 === 1;
        if (peerFirst) peerMs.push((await peerOnce(s3, storage.bucket, file, warm.partSize)).ms);
        oursRuns.push(await oursOnce(ours, file, `run-${i}`));
        if (!peerFirst) peerMs.push((await peerOnce(s3, storage.bucket, file, warm.partSize)).ms);
        const o = oursRuns[i];
        progress(`multipart: run ${i + 1}: ours ${o.toCompleteMs.toFixed(0)} ms to complete (complete ${o.completeMs.toFixed(0)} ms), ${o.toFinalMs.toFixed(0)} ms to ${o.status}; peer ${peerMs[i].toFixed(0)} ms`);
      }
      const readBack = median([await readBackMs(s3, storage.bucket, peerKey), await readBackMs(s3, storage.bucket, peerKey), await readBackMs(s3, storage.bucket, peerKey)]);
      progress("multipart: resume after an interruption at 50%");
      const resumed = await resume(ours, file, received, partPuts);
      return figures(oursRuns, peerMs, readBack, resumed, runs);
    } finally {
      s3.destroy();
      await rm(file, { force: true });
    }
  },
};

function figures(oursRuns: OursRun[], peerMs: number[], readBackMs: number, resumed: Awaited<ReturnType<typeof resume>>, runs: number): Figure[] {
  const partMiB = oursRuns[0].partSize / MiB;
  const setup = `${partMiB} MiB parts, ${PART_CONCURRENCY} at a time, median of ${runs}, alternating`;
  const peer = baseline("@aws-sdk/lib-storage Upload", mbPerSecond(FILE_BYTES, median(peerMs)), "MB/s");
  const toComplete = median(oursRuns.map((r) => r.toCompleteMs));
  const toFinal = median(oursRuns.map((r) => r.toFinalMs));
  const statuses = [...new Set(oursRuns.map((r) => r.status))].join("/");
  return [
    figure("Multipart upload 200 MiB, initiate to complete", mbPerSecond(FILE_BYTES, toComplete), "MB/s", peer, `${setup}; the complete call alone ${(median(oursRuns.map((r) => r.completeMs)) / 1000).toFixed(2)} s (median): with nothing declared it reads no byte beyond the first, the scan's single read computes the MD5 (a multipart ETag is not one); a GetObject of the 200 MiB hashed with MD5 here, what complete used to read first: ${(readBackMs / 1000).toFixed(2)} s (median of 3); target ≥ 0.9`),
    figure(
      "Multipart upload 200 MiB, initiate to last part (complete left out)",
      mbPerSecond(FILE_BYTES, median(oursRuns.map((r) => r.toCompleteMs - r.completeMs))),
      "MB/s",
      peer,
      `${setup}; initiate, then each part hashed (SHA-256), signed and PUT: what the client and the signing cost beside the SDK`,
    ),
    figure("Multipart upload 200 MiB, initiate to final status", toFinal / 1000, "s", baseline("lib-storage Upload", median(peerMs) / 1000, "s"), `${setup}; ends ${statuses} (random bytes after a PDF header), the scan included`),
    figure(
      "Resume after an interruption at 50%: bytes sent after it",
      resumed.bytesAfter / MiB,
      "MiB",
      baseline("file size (starting over)", FILE_BYTES / MiB, "MiB"),
      `MinIO's received request bytes over the resume: ${resumed.partPutsAfter} UploadPart requests for the ${resumed.partsResumed} parts of ${resumed.partCount} storage lacked; saving ${((1 - resumed.bytesAfter / FILE_BYTES) * 100).toFixed(0)}% of starting over; resumed in ${(resumed.resumeMs / 1000).toFixed(1)} s, ended ${resumed.status}`,
    ),
  ];
}
