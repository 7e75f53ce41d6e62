/**
 * A CSV of any size, generated chunk by chunk and never held whole: 64 KiB chunks of whole
 * 32-byte rows, cycling through a few distinct chunks (varied content for 512 KiB, not 50 MiB).
 */
import type { ByteSource } from "../src/domain/files/checks/byte-source.js";
import { generatedSource } from "../test/fixtures/files/index.js";

export const CSV_CHUNK_BYTES = 64 * 1024;
/** Every row, the header included, is exactly this long, so a chunk holds whole rows. */
const ROW_BYTES = 32;
const ROWS_PER_CHUNK = CSV_CHUNK_BYTES / ROW_BYTES;
const HEADER = "customerid,display_name,amount\r\n";
const NAMES = ["Anna Schmidt", "Lukas Becker", "Mia Johansen", "Noah Fischer"];
const VARIANTS = 8;

function row(id: number): string {
  return `${String(id).padStart(10, "0")},${NAMES[id % NAMES.length]},${String((id * 7919) % 1_000_000).padStart(6, "0")}\r\n`;
}

function chunk(variant: number, withHeader: boolean): Uint8Array {
  const first = variant * ROWS_PER_CHUNK;
  const rows = Array.from({ length: ROWS_PER_CHUNK - (withHeader ? 1 : 0) }, (_, i) => row(first + i));
  const bytes = new TextEncoder().encode((withHeader ? HEADER : "") + rows.join(""));
  if (bytes.length !== CSV_CHUNK_BYTES) throw new Error(`CSV chunk is ${bytes.length} bytes`);
  return bytes;
}

/** The largest whole number of chunks within `mib` MiB: a cut chunk would end in a partial row. */
export function csvSize(mib: number): number {
  return Math.floor((mib * 1024 * 1024) / CSV_CHUNK_BYTES) * CSV_CHUNK_BYTES;
}

/** A factory of fresh sources over the same content of `size` bytes (a multiple of the chunk). */
export function csvSources(size: number): () => ByteSource {
  const first = chunk(0, true);
  const pool = Array.from({ length: VARIANTS }, (_, v) => chunk(v, false));
  return () => generatedSource(size, (index) => (index === 0 ? first : pool[index % VARIANTS]));
}
