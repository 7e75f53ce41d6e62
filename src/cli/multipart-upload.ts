/**
 * The CLI's multipart upload: it keeps the object id in a state file beside the file, so that the
 * same command run again after an interruption asks storage which parts it holds and sends only
 * the rest (docs/multipart-uploads.md). Each part is sent with its SHA-256, which storage checks.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import type { ApiClients } from "@files-and-fields/client/node";
import type { ProgressBar } from "./progress.js";
import { type ByteRange, putFile } from "./transfer.js";

/** Parts signed per SignUploadParts call (the contract's bound). */
const SIGN_BATCH = 100;

interface UploadState {
  objectId: string;
  size: number;
  mtimeMs: number;
  partSize: number;
}

export const statePathOf = (file: string) => `${file}.upload-state.json`;

/** The interrupted upload of this very file (same size and modification time), if any. */
export async function interruptedUpload(file: string, info: { size: number; mtimeMs: number }): Promise<UploadState | undefined> {
  const text = await readFile(statePathOf(file), "utf8").catch(() => undefined);
  if (!text) return undefined;
  try {
    const state = JSON.parse(text) as UploadState;
    return state.size === info.size && state.mtimeMs === info.mtimeMs && state.partSize > 0 ? state : undefined;
  } catch {
    return undefined;
  }
}

export async function rememberUpload(file: string, state: UploadState): Promise<void> {
  await writeFile(statePathOf(file), JSON.stringify(state));
}

export async function forgetUpload(file: string): Promise<void> {
  await rm(statePathOf(file), { force: true });
}

async function sha256Of(file: string, range: ByteRange): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { start: range.start, end: range.end - 1 })) hash.update(chunk as Buffer);
  return hash.digest("base64");
}

/** Sends the parts storage does not hold yet; answers how many were sent. */
export async function sendMissingParts(
  files: ApiClients["files"],
  objectId: string,
  file: string,
  size: number,
  partSize: number,
  progress: ProgressBar,
): Promise<number> {
  const ranges = new Map<number, ByteRange>();
  for (let start = 0, n = 1; start < size; start += partSize, n++) ranges.set(n, { start, end: Math.min(size, start + partSize) });
  const { parts: held } = await files.listUploadedParts({ objectId });
  for (const part of held) {
    const range = ranges.get(part.partNumber);
    // A part of another size (cut with another part size) is sent again, replacing it.
    if (range && Number(part.size) === range.end - range.start) {
      ranges.delete(part.partNumber);
      progress.advance(range.end - range.start);
    }
  }
  const missing = [...ranges.entries()];
  for (let at = 0; at < missing.length; at += SIGN_BATCH) {
    const batch = missing.slice(at, at + SIGN_BATCH);
    const request = await Promise.all(
      batch.map(async ([partNumber, range]) => ({ partNumber, contentLength: BigInt(range.end - range.start), contentSha256: await sha256Of(file, range) })),
    );
    const { parts: signed } = await files.signUploadParts({ objectId, parts: request });
    for (const part of signed) await putFile(part.uploadUrl, part.uploadHeaders, file, progress, ranges.get(part.partNumber));
  }
  progress.finish();
  return missing.length;
}
