/**
 * The byte transfers straight to and from the storage backend, streamed (never buffered whole)
 * through a progress bar.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ProgressBar } from "./progress.js";

export class TransferFailed extends Error {}

/** Bytes start..end (exclusive) of a file: one part of a multipart upload. */
export interface ByteRange {
  start: number;
  end: number;
}

/** The Code and Message of an S3 XML error, or the start of whatever the body was. */
function storageError(status: number, body: string): string {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1];
  return code ? `storage answered ${status} ${code}: ${message ?? ""}` : `storage answered ${status}: ${body.slice(0, 200)}`;
}

async function readText(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * PUTs the file with exactly the signed headers (Content-Length included, which is why this uses
 * node:http rather than fetch). If the backend refuses early, its answer is what is reported.
 */
export async function putFile(url: string, headers: Record<string, string>, path: string, progress: ProgressBar, range?: ByteRange): Promise<void> {
  const target = new URL(url);
  const req = (target.protocol === "https:" ? https : http).request(target, { method: "PUT", headers });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.once("response", resolve);
    req.once("error", reject);
  });
  const source = range ? createReadStream(path, { start: range.start, end: range.end - 1 }) : createReadStream(path);
  const sent = pipeline(source, progress.meter(), req).then(
    () => undefined,
    (error: unknown) => error,
  );
  const res = await response;
  const body = await readText(res);
  const sendError = await sent;
  if (res.statusCode !== 200) throw new TransferFailed(storageError(res.statusCode ?? 0, body));
  if (sendError) throw sendError;
  // A part is one of several: the caller finishes the bar after the last.
  if (!range) progress.finish();
}

/** GETs the signed URL into `out` (through `out.part`, renamed when complete) or a stream. */
export async function download(url: string, out: string | Writable, progress: ProgressBar): Promise<void> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new TransferFailed(storageError(res.status, await res.text()));
  const body = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream);
  if (typeof out !== "string") {
    await pipeline(body, progress.meter(), out, { end: false });
  } else {
    const partial = `${out}.part`;
    try {
      await pipeline(body, progress.meter(), createWriteStream(partial));
      await rename(partial, out);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }
  progress.finish();
}
