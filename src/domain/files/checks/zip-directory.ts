import type { ByteSource } from "./byte-source.js";
import { hasBytesAt, u16le, u32le, u64le } from "./bytes.js";
import { broken, ok, type Parsed } from "./parsed.js";
import { readTail } from "./read-tail.js";

/** Fixed part of the end-of-central-directory record; a comment of up to 65,535 bytes follows. */
const EOCD_BYTES = 22;
/** Where a ZIP reader looks for the record: the last 22 + 65,535 bytes of the file. */
export const EOCD_SEARCH_BYTES = EOCD_BYTES + 0xffff;

const EOCD = [0x50, 0x4b, 0x05, 0x06];
const ZIP64_LOCATOR = [0x50, 0x4b, 0x06, 0x07];
const ZIP64_EOCD = [0x50, 0x4b, 0x06, 0x06];
const CENTRAL_ENTRY = [0x50, 0x4b, 0x01, 0x02];

/** An import spreadsheet's directory is a few KB; this bounds the one read that fetches it. */
const MAX_CENTRAL_DIRECTORY_BYTES = 16 * 1024 * 1024;

export interface CentralDirectoryLocation {
  entries: number;
  offset: number;
  size: number;
}

/**
 * Index in `tail` (the last bytes of a file) of an end-of-central-directory record whose comment
 * ends exactly at the end of the file, which is how ZIP readers recognize one; -1 if none.
 * Requiring the exact fit makes a chance match of the 4 signature bytes in other data harmless.
 */
export function findEndOfCentralDirectory(tail: Uint8Array): number {
  for (let at = tail.length - EOCD_BYTES; at >= 0; at--) {
    if (hasBytesAt(tail, at, EOCD) && at + EOCD_BYTES + u16le(tail, at + 20)! === tail.length) return at;
  }
  return -1;
}

/** Reads the end-of-central-directory record (and its ZIP64 form) from the tail of the file. */
export async function locateCentralDirectory(source: ByteSource): Promise<Parsed<CentralDirectoryLocation>> {
  const tail = await readTail(source, EOCD_SEARCH_BYTES);
  const tailStart = source.size - tail.length;
  const at = findEndOfCentralDirectory(tail);
  if (at < 0) return broken("no end-of-central-directory record at the end of the file");
  const entriesHere = u16le(tail, at + 8)!;
  const entries = u16le(tail, at + 10)!;
  const size = u32le(tail, at + 12)!;
  const offset = u32le(tail, at + 16)!;
  if (entries === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    return locateZip64(source, tailStart + at);
  }
  if (u16le(tail, at + 4) !== 0 || u16le(tail, at + 6) !== 0 || entriesHere !== entries) {
    return broken("multi-disk archives are not supported");
  }
  return bounded({ entries, offset, size }, tailStart + at);
}

async function locateZip64(source: ByteSource, eocdOffset: number): Promise<Parsed<CentralDirectoryLocation>> {
  if (eocdOffset < 20) return broken("ZIP64 locator missing");
  const locator = await source.read(eocdOffset - 20, 20);
  if (!hasBytesAt(locator, 0, ZIP64_LOCATOR)) return broken("ZIP64 locator missing");
  const recordOffset = u64le(locator, 8);
  if (recordOffset === undefined || recordOffset + 56 > eocdOffset) return broken("ZIP64 record offset out of range");
  const record = await source.read(recordOffset, 56);
  if (!hasBytesAt(record, 0, ZIP64_EOCD)) return broken("ZIP64 end-of-central-directory record missing");
  const entries = u64le(record, 32);
  const size = u64le(record, 40);
  const offset = u64le(record, 48);
  if (entries === undefined || size === undefined || offset === undefined) return broken("ZIP64 record is truncated");
  return bounded({ entries, offset, size }, recordOffset);
}

/** The directory must sit before the record that points at it, and be of a sane size. */
function bounded(location: CentralDirectoryLocation, recordOffset: number): Parsed<CentralDirectoryLocation> {
  if (location.offset + location.size > recordOffset) return broken("the central directory lies outside the file");
  if (location.size > MAX_CENTRAL_DIRECTORY_BYTES) return broken(`central directory of ${location.size} bytes is too large`);
  return ok(location);
}

/** What the central directory says of one entry. */
export interface ZipEntryInfo {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  /** As declared; nothing is inflated to learn it. */
  uncompressedSize: number;
  localHeaderOffset: number;
}

const ZIP64_EXTRA = 0x0001;
const U32_MAX = 0xffffffff;

/** The entries of a central directory, checking each record's signature and length. */
export function readEntries(directory: Uint8Array, expectedEntries: number): Parsed<ZipEntryInfo[]> {
  const entries: ZipEntryInfo[] = [];
  const decoder = new TextDecoder("utf-8"); // non-fatal: names are only compared against ASCII
  let at = 0;
  while (at < directory.length) {
    if (!hasBytesAt(directory, at, CENTRAL_ENTRY)) return broken(`invalid central directory entry at offset ${at}`);
    const nameLength = u16le(directory, at + 28);
    const extraLength = u16le(directory, at + 30);
    const commentLength = u16le(directory, at + 32);
    if (nameLength === undefined || extraLength === undefined || commentLength === undefined) {
      return broken("truncated central directory entry");
    }
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > directory.length) return broken("truncated central directory entry");
    const extra = directory.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    entries.push({
      name: decoder.decode(directory.subarray(at + 46, at + 46 + nameLength)),
      method: u16le(directory, at + 10)!,
      ...zip64Sizes(extra, u32le(directory, at + 20)!, u32le(directory, at + 24)!, u32le(directory, at + 42)!),
    });
    at = end;
  }
  if (entries.length !== expectedEntries) {
    return broken(`the central directory lists ${entries.length} entries, the end record says ${expectedEntries}`);
  }
  return ok(entries);
}

/**
 * Fields saturated at 0xFFFFFFFF take their value from the ZIP64 extra field, in the order
 * uncompressed, compressed, offset, each present only when saturated. An unreadable one counts
 * as the largest value, so a bound on sizes cannot be dodged by a broken extra field.
 */
function zip64Sizes(extra: Uint8Array, compressed: number, uncompressed: number, offset: number) {
  const sizes = { compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: offset };
  if (compressed !== U32_MAX && uncompressed !== U32_MAX && offset !== U32_MAX) return sizes;
  let field = 0;
  while (field + 4 <= extra.length && u16le(extra, field) !== ZIP64_EXTRA) field += 4 + u16le(extra, field + 2)!;
  let at = field + 4;
  const next = () => {
    const value = u64le(extra, at) ?? Number.MAX_SAFE_INTEGER;
    at += 8;
    return value;
  };
  if (uncompressed === U32_MAX) sizes.uncompressedSize = next();
  if (compressed === U32_MAX) sizes.compressedSize = next();
  if (offset === U32_MAX) sizes.localHeaderOffset = next();
  return sizes;
}
