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

/** Parts in flight at once: enough to keep a link busy while one part's request starts or ends. */
export const PART_CONCURRENCY = 4;

export interface PartSending {
  /** Parts hashed, signed and sent at once (PART_CONCURRENCY by default). */
  concurrency?: number;
  /** Aborted: no further part is started (those in flight finish) and the call rejects with its reason. */
  signal?: AbortSignal;
  /** Each part storage accepted, as it is accepted. */
  onPartSent?(partNumber: number, bytes: number): void;
}

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

/**
 * Sends the parts storage does not hold yet; answers how many were sent. Each of `concurrency`
 * senders takes the next missing part, hashes it, has it signed and PUTs it, so hashing, signing
 * and sending overlap instead of hashing the whole file before the first byte leaves.
 */
export async function sendMissingParts(
  files: ApiClients["files"],
  objectId: string,
  file: string,
  size: number,
  partSize: number,
  progress: ProgressBar,
  sending: PartSending = {},
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
  let next = 0;
  const sender = async () => {
    while (next < missing.length) {
      sending.signal?.throwIfAborted();
      const [partNumber, range] = missing[next++];
      const contentSha256 = await sha256Of(file, range);
      const { parts: signed } = await files.signUploadParts({ objectId, parts: [{ partNumber, contentLength: BigInt(range.end - range.start), contentSha256 }] });
      await putFile(signed[0].uploadUrl, signed[0].uploadHeaders, file, progress, range);
      sending.onPartSent?.(partNumber, range.end - range.start);
    }
  };
  // Settled, not Promise.all: when one sender stops (a failure, the signal) the others' parts in
  // flight finish before the call answers, so a caller that resumes never races its own PUTs.
  const settled = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(sending.concurrency ?? PART_CONCURRENCY, missing.length)) }, sender));
  const failed = settled.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
  progress.finish();
  return missing.length;
}
