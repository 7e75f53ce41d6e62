import type { ByteSource } from "./byte-source.js";
import { BoundedInflater } from "./bounded-inflater.js";
import { hasBytesAt, u16le } from "./bytes.js";
import type { ZipEntryInfo } from "./zip-directory.js";

const LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];
const LOCAL_HEADER_BYTES = 30;
/** A data descriptor (signature, CRC, two ZIP64 sizes) may follow a part's data; nothing else may. */
const MAX_GAP_BYTES = 24;

/** Receives a part's bytes as they are produced. */
export interface PartSink {
  push(bytes: Uint8Array): void;
}

export interface PartsProblem {
  reason: "OFFICE_CORRUPT" | "OFFICE_EXPANSION_TOO_LARGE";
  message: string;
}

/**
 * Reads every part of a ZIP package in one pass over the file, front to back, and inflates it,
 * counting the bytes actually produced: a part may produce no more than it declares, and all parts
 * together no more than `maxTotalBytes`. A bomb is cut off as soon as either is passed, without
 * expanding further and without reading the rest of the file. `sinkFor` may ask for a part's
 * bytes (XML to parse, the head of a binary part).
 *
 * Bytes the directory does not account for (data before the first part, between parts, or parts
 * that overlap, as in overlapping-entry bombs) are refused: a reader that walks local headers
 * instead of the directory would find a different package.
 */
export async function readParts(
  source: ByteSource,
  parts: readonly ZipEntryInfo[],
  directoryOffset: number,
  maxTotalBytes: number,
  sinkFor: (part: ZipEntryInfo) => PartSink | undefined,
): Promise<PartsProblem | undefined> {
  const ordered = [...parts].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  const reader = new PartReader(ordered, directoryOffset, maxTotalBytes, sinkFor);
  let offset = 0;
  for await (const chunk of source.stream()) {
    const problem = await reader.push(chunk, offset);
    offset += chunk.length;
    if (problem !== undefined || reader.done) return problem;
  }
  return reader.done ? undefined : corrupt("the file ends inside a part");
}

class PartReader {
  private index = 0;
  private header: Uint8Array = new Uint8Array(0);
  /** Absolute offsets of the current part's data, once its local header was read. */
  private dataStart = -1;
  private dataEnd = -1;
  private inflater: BoundedInflater | undefined;
  private sink: PartSink | undefined;
  private produced = 0;
  private total = 0;
  /** Where the bytes accounted for so far end. */
  private accounted = 0;

  constructor(
    private readonly parts: readonly ZipEntryInfo[],
    private readonly directoryOffset: number,
    private readonly maxTotalBytes: number,
    private readonly sinkFor: (part: ZipEntryInfo) => PartSink | undefined,
  ) {}

  get done(): boolean {
    return this.index >= this.parts.length;
  }

  async push(chunk: Uint8Array, chunkOffset: number): Promise<PartsProblem | undefined> {
    let at = chunkOffset;
    const end = chunkOffset + chunk.length;
    while (at < end && !this.done) {
      const part = this.parts[this.index]!;
      if (at < part.localHeaderOffset) {
        at = part.localHeaderOffset;
        continue;
      }
      const slice = (from: number, to: number) => chunk.subarray(from - chunkOffset, Math.min(to, end) - chunkOffset);
      let problem: PartsProblem | undefined;
      if (this.dataStart < 0) {
        const take = slice(at, part.localHeaderOffset + LOCAL_HEADER_BYTES);
        this.header = concat(this.header, take);
        at += take.length;
        if (this.header.length === LOCAL_HEADER_BYTES) problem = this.open(part);
      } else if (at < this.dataStart) {
        at = Math.min(this.dataStart, end);
      } else {
        const take = slice(at, this.dataEnd);
        at += take.length;
        problem = await this.data(part, take);
        if (!problem && at === this.dataEnd) problem = await this.close(part);
      }
      if (problem) return problem;
    }
    return undefined;
  }

  /** Reads the local header: where the data lies, and that it lies where the directory says. */
  private open(part: ZipEntryInfo): PartsProblem | undefined {
    if (!hasBytesAt(this.header, 0, LOCAL_HEADER)) return corrupt(`${part.name}: no local header where the directory points`);
    if (part.localHeaderOffset - this.accounted > (this.index === 0 ? 0 : MAX_GAP_BYTES)) {
      return corrupt(`${part.localHeaderOffset - this.accounted} bytes before ${part.name} belong to no part`);
    }
    if (part.method !== 0 && part.method !== 8) return corrupt(`${part.name}: compression method ${part.method} is not supported`);
    this.dataStart = part.localHeaderOffset + LOCAL_HEADER_BYTES + u16le(this.header, 26)! + u16le(this.header, 28)!;
    this.dataEnd = this.dataStart + part.compressedSize;
    const next = this.parts[this.index + 1]?.localHeaderOffset ?? this.directoryOffset;
    if (this.dataEnd > next) return corrupt(`${part.name} overlaps the next part or the directory`);
    this.sink = this.sinkFor(part);
    this.produced = 0;
    const cap = Math.min(part.uncompressedSize, this.maxTotalBytes - this.total);
    this.inflater = part.method === 8 ? new BoundedInflater("deflate-raw", cap, (bytes) => this.sink?.push(bytes)) : undefined;
    return undefined;
  }

  private async data(part: ZipEntryInfo, bytes: Uint8Array): Promise<PartsProblem | undefined> {
    if (this.inflater) {
      if (await this.inflater.write(bytes)) return undefined;
      return this.close(part);
    }
    this.produced += bytes.length;
    if (this.produced > part.uncompressedSize || this.total + this.produced > this.maxTotalBytes) return this.tooLarge(part);
    this.sink?.push(bytes);
    return undefined;
  }

  private async close(part: ZipEntryInfo): Promise<PartsProblem | undefined> {
    if (this.inflater) {
      const outcome = await this.inflater.finish();
      this.produced = this.inflater.bytesProduced;
      this.inflater = undefined;
      if (outcome === "over-limit") return this.tooLarge(part);
      if (outcome === "corrupt") return corrupt(`${part.name}: the compressed data is corrupt or cut short`);
    }
    this.total += this.produced;
    this.accounted = this.dataEnd;
    this.index++;
    if (this.done && this.directoryOffset - this.accounted > MAX_GAP_BYTES) {
      return corrupt(`${this.directoryOffset - this.accounted} bytes before the directory belong to no part`);
    }
    this.header = new Uint8Array(0);
    this.dataStart = this.dataEnd = -1;
    this.sink = undefined;
    return undefined;
  }

  private tooLarge(part: ZipEntryInfo): PartsProblem {
    const message =
      this.produced > part.uncompressedSize
        ? `${part.name} inflates beyond the ${part.uncompressedSize} bytes it declares`
        : `the parts inflate beyond ${this.maxTotalBytes} bytes`;
    return { reason: "OFFICE_EXPANSION_TOO_LARGE", message };
  }
}

function corrupt(message: string): PartsProblem {
  return { reason: "OFFICE_CORRUPT", message };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
