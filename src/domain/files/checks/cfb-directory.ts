import type { ByteSource } from "./byte-source.js";
import { hasBytesAt, u16le, u32le } from "./bytes.js";
import { broken, ok, type Parsed } from "./parsed.js";

/**
 * Reads the top-level entries of a Compound File Binary (OLE2) container, the format of XLS:
 * the header, then the directory sectors by following the sector allocation table (FAT) chain.
 * Only headers, FAT entries and directory sectors are read here; cfb-stream.ts reads a stream.
 */

export const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const HEADER_BYTES = 512;
const DIRECTORY_ENTRY_BYTES = 128;
const DIFAT_IN_HEADER = 109;
const LAST_REGULAR_SECTOR = 0xfffffffa;
const END_OF_CHAIN = 0xfffffffe;
const NO_STREAM = 0xffffffff;
const ROOT_STORAGE = 5;

/** Caps that bound the reads a hostile chain can cause (a real XLS uses a handful of each). */
const MAX_DIRECTORY_SECTORS = 256;
const MAX_DIFAT_HOPS = 1024;

export const CFB_STORAGE = 1;
export const CFB_STREAM = 2;

export interface CfbEntry {
  name: string;
  type: number;
  /** First sector of a stream's contents (in the mini stream when `size` is below the cutoff). */
  startSector: number;
  /** Bytes in the stream. */
  size: number;
}

interface DirectoryEntry extends CfbEntry {
  left: number;
  right: number;
  child: number;
}

export interface CfbHeader {
  sectorSize: number;
  firstDirectorySector: number;
  firstDifatSector: number;
  difatSectors: number;
  miniStreamCutoff: number;
  firstMiniFatSector: number;
  bytes: Uint8Array;
}

type Header = CfbHeader;

/** A container's header, root storage entry (which holds the mini stream) and top-level entries. */
export interface CfbContainer {
  header: CfbHeader;
  root: CfbEntry;
  entries: CfbEntry[];
}

/** The header, the root storage and the entries directly under it (e.g. "Workbook", "_VBA_PROJECT_CUR"). */
export async function readCfbContainer(source: ByteSource): Promise<Parsed<CfbContainer>> {
  const header = parseHeader(await source.read(0, HEADER_BYTES));
  if (!header.ok) return header;
  const entries = await readDirectory(source, header.value);
  if (!entries.ok) return entries;
  const children = rootChildren(entries.value);
  if (!children.ok) return children;
  return ok({ header: header.value, root: entries.value[0]!, entries: children.value });
}

function parseHeader(bytes: Uint8Array): Parsed<Header> {
  if (bytes.length < HEADER_BYTES || !hasBytesAt(bytes, 0, CFB_SIGNATURE)) return broken("the OLE2 header is truncated");
  if (u16le(bytes, 0x1c) !== 0xfffe) return broken("invalid OLE2 byte order mark");
  const major = u16le(bytes, 0x1a);
  const sectorShift = u16le(bytes, 0x1e);
  // Version 3 uses 512-byte sectors, version 4 uses 4096-byte sectors; nothing else exists.
  if (!((major === 3 && sectorShift === 9) || (major === 4 && sectorShift === 12))) {
    return broken(`unsupported OLE2 version ${major} with sector shift ${sectorShift}`);
  }
  return ok({
    sectorSize: 1 << sectorShift,
    firstDirectorySector: u32le(bytes, 0x30)!,
    firstDifatSector: u32le(bytes, 0x44)!,
    difatSectors: u32le(bytes, 0x48)!,
    miniStreamCutoff: u32le(bytes, 0x38)!,
    firstMiniFatSector: u32le(bytes, 0x3c)!,
    bytes,
  });
}

async function readDirectory(source: ByteSource, header: Header): Promise<Parsed<DirectoryEntry[]>> {
  const entries: DirectoryEntry[] = [];
  const visited = new Set<number>();
  let sector = header.firstDirectorySector;
  while (sector !== END_OF_CHAIN) {
    if (visited.has(sector)) return broken("the directory sector chain loops");
    if (visited.size >= MAX_DIRECTORY_SECTORS) return broken("the directory sector chain is too long");
    visited.add(sector);
    const bytes = await readSector(source, header, sector);
    if (!bytes.ok) return bytes;
    for (let at = 0; at < header.sectorSize; at += DIRECTORY_ENTRY_BYTES) {
      entries.push(parseEntry(bytes.value.subarray(at, at + DIRECTORY_ENTRY_BYTES)));
    }
    const next = await nextSector(source, header, sector);
    if (!next.ok) return next;
    sector = next.value;
  }
  return ok(entries);
}

function parseEntry(bytes: Uint8Array): DirectoryEntry {
  // Name length counts bytes including the UTF-16 terminator, at most 32 characters.
  const nameBytes = Math.min(Math.max((u16le(bytes, 0x40) ?? 0) - 2, 0), 62);
  const name = new TextDecoder("utf-16le").decode(bytes.subarray(0, nameBytes));
  return {
    name,
    type: bytes[0x42],
    left: u32le(bytes, 0x44)!,
    right: u32le(bytes, 0x48)!,
    child: u32le(bytes, 0x4c)!,
    startSector: u32le(bytes, 0x74) ?? END_OF_CHAIN,
    // Version 3 files may leave garbage in the high half of the size (MS-CFB 2.6.3).
    size: u32le(bytes, 0x78) ?? 0,
  };
}

/** The root's children form a tree linked by left/right sibling ids; walk it with a cycle guard. */
function rootChildren(entries: DirectoryEntry[]): Parsed<CfbEntry[]> {
  const root = entries[0];
  if (!root || root.type !== ROOT_STORAGE) return broken("the first directory entry is not the root storage");
  const children: CfbEntry[] = [];
  const visited = new Set<number>();
  const pending = [root.child];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (id === NO_STREAM) continue;
    const entry = entries[id];
    if (!entry || id === 0 || visited.has(id)) return broken(`invalid directory entry reference ${id}`);
    visited.add(id);
    children.push({ name: entry.name, type: entry.type, startSector: entry.startSector, size: entry.size });
    pending.push(entry.left, entry.right);
  }
  return ok(children);
}

async function readSector(source: ByteSource, header: Header, sector: number): Promise<Parsed<Uint8Array>> {
  const offset = sectorOffset(source, header, sector);
  if (!offset.ok) return offset;
  return ok(await source.read(offset.value, header.sectorSize));
}

/** One 4-byte slot of a FAT or DIFAT sector: a ranged read of 4 bytes, not of the sector. */
async function readSectorNumber(source: ByteSource, header: Header, sector: number, index: number): Promise<Parsed<number>> {
  const offset = sectorOffset(source, header, sector);
  if (!offset.ok) return offset;
  const value = u32le(await source.read(offset.value + index * 4, 4), 0);
  return value === undefined ? broken(`sector ${sector} is truncated`) : ok(value);
}

/** Sector 0 follows the header, which occupies one sector's worth of bytes. */
export function sectorOffset(source: ByteSource, header: Header, sector: number): Parsed<number> {
  const offset = (sector + 1) * header.sectorSize;
  if (sector > LAST_REGULAR_SECTOR || offset + header.sectorSize > source.size) {
    return broken(`sector ${sector} lies outside the file`);
  }
  return ok(offset);
}

/** Next sector in a chain: entry `sector` of the FAT, which is itself spread over FAT sectors. */
export async function nextSector(source: ByteSource, header: Header, sector: number): Promise<Parsed<number>> {
  const perSector = header.sectorSize / 4;
  const fatSector = await fatSectorNumber(source, header, Math.floor(sector / perSector));
  if (!fatSector.ok) return fatSector;
  return readSectorNumber(source, header, fatSector.value, sector % perSector);
}

/**
 * Where FAT sector `index` lives: the first 109 are listed in the header, the rest in a chain of
 * DIFAT sectors whose last slot points to the next DIFAT sector.
 */
export async function fatSectorNumber(source: ByteSource, header: Header, index: number): Promise<Parsed<number>> {
  if (index < DIFAT_IN_HEADER) return ok(u32le(header.bytes, 0x4c + index * 4)!);
  const perDifat = header.sectorSize / 4 - 1;
  const hops = Math.floor((index - DIFAT_IN_HEADER) / perDifat);
  if (hops >= Math.min(header.difatSectors, MAX_DIFAT_HOPS)) return broken(`FAT sector ${index} is not listed`);
  let difat = header.firstDifatSector;
  for (let hop = 0; hop < hops; hop++) {
    const next = await readSectorNumber(source, header, difat, perDifat);
    if (!next.ok) return next;
    difat = next.value;
  }
  return readSectorNumber(source, header, difat, (index - DIFAT_IN_HEADER) % perDifat);
}
