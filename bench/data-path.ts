/**
 * 2. The data path: a PUT to our presigned URL against the SDK's own PutObject of the same bytes
 * to the same MinIO with the same bound headers (type, SSE, If-None-Match). The presigned PUT is
 * made twice, with fetch (as asked) and with node:http, because undici's fetch uploads markedly
 * slower than either other client here: the fetch row alone would blame the URL for the client.
 * Runs alternate, so background load hits all three alike; the initiate before a PUT is not timed.
 */
import { httpSend } from "./http-send.js";
import { randomBytes, randomUUID } from "node:crypto";
import { PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { parseConfig } from "../src/config/config.js";
import { createS3Client } from "../src/adapters/s3/s3-object-storage.js";
import type { BenchGroup } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { mbPerSecond, median, timed } from "./stats.js";
import { apiFor, progress, type Api } from "./support.js";
import { initiate, type StartedUpload } from "./uploads.js";

const MiB = 1024 * 1024;
const SIZES = [1 * MiB, 8 * MiB];
const CONTENT_TYPE = "application/pdf";

/** The signed PUT with fetch, which sets the length itself. */
async function fetchPut(upload: StartedUpload, bytes: Uint8Array): Promise<void> {
  const headers = { ...upload.uploadHeaders };
  delete headers["content-length"];
  // A view, not a copy: a PUT is timed, and copying 8 MiB would be counted in it.
  const body = new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  const res = await fetch(upload.uploadUrl, { method: "PUT", headers, body });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`PUT to storage: ${res.status}`);
}

/** The same signed PUT with node:http, which (unlike fetch) sends the exact uploadHeaders as given. */
async function httpPut(upload: StartedUpload, bytes: Buffer): Promise<void> {
  const res = await httpSend("PUT", upload.uploadUrl, upload.uploadHeaders, bytes);
  if (res.status !== 200) throw new Error(`PUT to storage: ${res.status}`);
}

export const dataPath: BenchGroup = {
  name: "put",
  kind: "stack",
  async run({ stack, options }) {
    const api = await apiFor(stack.apiUrl, "bench-put");
    const storage = parseConfig(stack.env).storage;
    const s3 = createS3Client(storage);
    try {
      const figures: Figure[] = [];
      for (const size of SIZES) {
        progress(`presigned PUT vs PutObject: ${size / MiB} MiB x ${options.putRuns}`);
        figures.push(...(await compare(api, s3, storage.bucket, size, options.putRuns)));
      }
      return figures;
    } finally {
      s3.destroy();
    }
  },
};

async function compare(api: Api, s3: S3Client, bucket: string, size: number, runs: number): Promise<Figure[]> {
  const bytes = randomBytes(size);
  const signed = () => initiate(api, { objectClass: "GENERAL_DOCUMENT", contentType: CONTENT_TYPE, filename: "bench.pdf" }, size);
  const viaFetch = async () => {
    const upload = await signed();
    return (await timed(() => fetchPut(upload, bytes))).ms;
  };
  const viaHttp = async () => {
    const upload = await signed();
    return (await timed(() => httpPut(upload, bytes))).ms;
  };
  const direct = async () => {
    const command = new PutObjectCommand({
      Bucket: bucket,
      Key: `bench-direct/${randomUUID()}`,
      Body: bytes,
      ContentType: CONTENT_TYPE,
      ContentLength: size,
      ServerSideEncryption: "AES256",
      IfNoneMatch: "*",
    });
    return (await timed(() => s3.send(command))).ms;
  };
  const variants = [viaFetch, viaHttp, direct];
  for (const variant of variants) await variant(); // warm-up: sockets, the first signature
  const rates = variants.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [index, variant] of variants.entries()) rates[index].push(mbPerSecond(size, await variant()));
  }
  const label = `${size / MiB} MiB`;
  const sdk = baseline(`SDK PutObject ${label}`, median(rates[2]), "MB/s");
  const note = `median of ${runs}, the three alternating`;
  return [
    figure(`Presigned PUT ${label} (fetch)`, median(rates[0]), "MB/s", sdk, note),
    figure(`Presigned PUT ${label} (node:http)`, median(rates[1]), "MB/s", sdk, note),
  ];
}
