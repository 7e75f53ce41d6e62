/**
 * Ours, tusd and direct PutObject alternating, one upload at a time, from the bench process: what
 * the step that makes an upload final costs (our complete, tusd's last PATCH).
 */
import type { S3Client } from "@aws-sdk/client-s3";
import { timed } from "../stats.js";
import type { Api } from "../support.js";
import { tusCreate, tusPatch } from "../tus.js";
import { complete, initiate, put, type UploadSpec } from "../uploads.js";
import { directPut, type Payload } from "./engines.js";

const ENGINES = ["ours", "tusd", "direct"] as const;

export interface Sequential {
  completeMs: number[];
  oursFullMs: number[];
  patchMs: number[];
  tusdFullMs: number[];
  directMs: number[];
  notReady: number;
}

export interface SequentialTargets {
  api: Api;
  s3: S3Client;
  bucket: string;
  tusdFilesUrl: string;
}

export async function sequential(targets: SequentialTargets, file: Payload, runs: number): Promise<Sequential> {
  const result: Sequential = { completeMs: [], oursFullMs: [], patchMs: [], tusdFullMs: [], directMs: [], notReady: 0 };
  const steps: Record<(typeof ENGINES)[number], (i: number) => Promise<void>> = {
    ours: async (i) => {
      const began = performance.now();
      const spec: UploadSpec = { objectClass: "GENERAL_DOCUMENT", contentType: file.contentType, bytes: file.bytes, filename: file.filename, ownerEntityId: `seq-${i}` };
      const started = await initiate(targets.api, spec, file.bytes.length);
      await put(started, file.bytes);
      const { ms, value } = await timed(() => complete(targets.api, started.storedObject.id));
      if (value.status !== "READY") {
        result.notReady++;
        return;
      }
      result.completeMs.push(ms);
      result.oursFullMs.push(performance.now() - began);
    },
    tusd: async () => {
      const began = performance.now();
      const url = await tusCreate(targets.tusdFilesUrl, file.bytes.length, { filename: file.filename, filetype: file.contentType });
      result.patchMs.push((await timed(() => tusPatch(url, file.bytes))).ms);
      result.tusdFullMs.push(performance.now() - began);
    },
    direct: async () => {
      result.directMs.push((await timed(() => targets.s3.send(directPut(targets.bucket, file)))).ms);
    },
  };
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < ENGINES.length; k++) await steps[ENGINES[(i + k) % ENGINES.length]](i);
  }
  return result;
}
