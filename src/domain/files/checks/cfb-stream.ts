import type { ByteSource } from "./byte-source.js";
import { u32le } from "./bytes.js";
import { fatSectorNumber, sectorOffset, type CfbContainer, type CfbEntry } from "./cfb-directory.js";
import { broken, ok, type Parsed } from "./parsed.js";

const END_OF_CHAIN = 0xfffffffe;
const MINI_SECTOR_BYTES = 64;
/** Contiguous sectors fetched in one ranged read. */
const MAX_RUN_SECTORS = 64;

/**
 * Reads one stream of a Compound File Binary container front to back, handing its bytes to
 * `consume` in runs of contiguous sectors, until the stream ends or `consume` answers false.
 * Streams below the mini-stream cutoff live in 64-byte mini sectors inside the root's stream.
 * Every chain is followed with a guard against loops, and the FAT is fetched a sector at a time
 * and kept, so a stream of n sectors costs about n / 64 ranged reads, not n.
 */
export async function readCfbStream(
  source: ByteSource,
  container: CfbContainer,
  entry: CfbEntry,
  consume: (bytes: Uint8Array) => boolean,
): Promise<Parsed<void>> {
  if (entry.size > source.size) return broken(`stream ${entry.name} declares ${entry.size} bytes, more than the file`);
  const fat = new Fat(source, container);
  if (entry.size < container.header.miniStreamCutoff) return readMini(source, container, fat, entry, consume);
  const sectorSize = container.header.sectorSize;
  let remaining = entry.size;
  let sector = entry.startSector;
  const visited = new Set<number>();
  while (remaining > 0) {
    const run: number[] = [];
    while (run.length < MAX_RUN_SECTORS && run.length * sectorSize < remaining && (run.length === 0 || sector === run[run.length - 1]! + 1)) {
      if (sector === END_OF_CHAIN || visited.has(sector)) return broken(`the chain of stream ${entry.name} ends early or loops`);
      visited.add(sector);
      run.push(sector);
      const next = await fat.next(sector);
      if (!next.ok) return next;
      sector = next.value;
    }
    const offset = sectorOffset(source, container.header, run[0]!);
    if (!offset.ok) return offset;
    const length = Math.min(run.length * sectorSize, remaining);
    const bytes = await source.read(offset.value, length);
    if (bytes.length < length) return broken(`stream ${entry.name} is truncated`);
    remaining -= length;
    if (!consume(bytes)) return ok(undefined);
  }
  return ok(undefined);
}

async function readMini(source: ByteSource, container: CfbContainer, fat: Fat, entry: CfbEntry, consume: (bytes: Uint8Array) => boolean): Promise<Parsed<void>> {
  const { header, root } = container;
  const perSector = header.sectorSize / MINI_SECTOR_BYTES;
  const rootChain = new Chain(fat, root.startSector);
  const miniFatChain = new Chain(fat, header.firstMiniFatSector);
  // A mini stream is under 4 KiB: its few regular sectors are fetched once each.
  const sectors = new Map<number, Uint8Array>();
  const sectorBytes = async (chain: Chain, index: number): Promise<Parsed<Uint8Array>> => {
    const sector = await chain.at(index);
    if (!sector.ok) return sector;
    const cached = sectors.get(sector.value);
    if (cached) return ok(cached);
    const offset = sectorOffset(source, header, sector.value);
    if (!offset.ok) return offset;
    const bytes = await source.read(offset.value, header.sectorSize);
    sectors.set(sector.value, bytes);
    return ok(bytes);
  };
  let remaining = entry.size;
  let mini = entry.startSector;
  const visited = new Set<number>();
  while (remaining > 0) {
    if (mini === END_OF_CHAIN || visited.has(mini)) return broken(`the mini chain of stream ${entry.name} ends early or loops`);
    visited.add(mini);
    const holder = await sectorBytes(rootChain, Math.floor(mini / perSector));
    if (!holder.ok) return holder;
    const length = Math.min(MINI_SECTOR_BYTES, remaining);
    const bytes = holder.value.subarray((mini % perSector) * MINI_SECTOR_BYTES, (mini % perSector) * MINI_SECTOR_BYTES + length);
    if (bytes.length < length) return broken(`stream ${entry.name} is truncated`);
    remaining -= length;
    if (!consume(bytes)) return ok(undefined);
    if (remaining === 0) break;
    const table = await sectorBytes(miniFatChain, Math.floor((mini * 4) / header.sectorSize));
    if (!table.ok) return table;
    const next = u32le(table.value, (mini * 4) % header.sectorSize);
    if (next === undefined) return broken("the mini FAT is truncated");
    mini = next;
  }
  return ok(undefined);
}

/** The sector allocation table, fetched one FAT sector at a time and kept. */
class Fat {
  private readonly sectors = new Map<number, Uint8Array>();

  constructor(
    private readonly source: ByteSource,
    private readonly container: CfbContainer,
  ) {}

  async next(sector: number): Promise<Parsed<number>> {
    const perSector = this.container.header.sectorSize / 4;
    const index = Math.floor(sector / perSector);
    let table = this.sectors.get(index);
    if (!table) {
      const location = await fatSectorNumber(this.source, this.container.header, index);
      if (!location.ok) return location;
      const offset = sectorOffset(this.source, this.container.header, location.value);
      if (!offset.ok) return offset;
      table = await this.source.read(offset.value, this.container.header.sectorSize);
      this.sectors.set(index, table);
    }
    const next = u32le(table, (sector % perSector) * 4);
    return next === undefined ? broken(`FAT sector ${index} is truncated`) : ok(next);
  }
}

/** A chain's sectors by position, walked once as far as asked, with a loop guard. */
class Chain {
  private readonly sectors: number[] = [];
  private readonly seen = new Set<number>();

  constructor(
    private readonly fat: Fat,
    start: number,
  ) {
    this.sectors.push(start);
    this.seen.add(start);
  }

  async at(index: number): Promise<Parsed<number>> {
    while (this.sectors.length <= index) {
      const last = this.sectors[this.sectors.length - 1]!;
      if (last === END_OF_CHAIN) return broken("a sector chain ends early");
      const next = await this.fat.next(last);
      if (!next.ok) return next;
      if (this.seen.has(next.value)) return broken("a sector chain loops");
      this.seen.add(next.value);
      this.sectors.push(next.value);
    }
    const sector = this.sectors[index]!;
    return sector === END_OF_CHAIN ? broken("a sector chain ends early") : ok(sector);
  }
}
