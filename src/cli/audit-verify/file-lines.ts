import { createReadStream } from "node:fs";

export interface NumberedLine {
  line: number;
  text: string;
}

/**
 * A file's lines, read afresh on each call, in batches of one read each. With `marker`, only the
 * lines holding it are decoded (the others are counted, for the line numbers): the pass that
 * looks for checkpoints skips the entries at the speed of a byte search.
 */
export type LineSource = (marker?: string) => AsyncIterable<NumberedLine[]>;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** An export's line is an entry of a few KB; a longer one is not an export and is not buffered. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export class LineTooLong extends Error {
  constructor(readonly line: number) {
    super(`longer than ${MAX_LINE_BYTES} bytes`);
  }
}

function decode(buffer: Buffer, start: number, end: number): string {
  return buffer.toString("utf8", start, end > start && buffer[end - 1] === CARRIAGE_RETURN ? end - 1 : end);
}

/** Streamed, so memory stays flat whatever the file's size. */
export function fileLines(path: string): LineSource {
  return async function* (marker) {
    const needle = marker === undefined ? undefined : Buffer.from(marker, "utf8");
    const input = createReadStream(path, { highWaterMark: 1024 * 1024 });
    let rest: Buffer = Buffer.alloc(0);
    let line = 0;
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        const buffer = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
        const batch: NumberedLine[] = [];
        let start = 0;
        let nextMarker = needle ? buffer.indexOf(needle) : -1;
        for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
          line += 1;
          if (!needle || (nextMarker !== -1 && nextMarker < end)) batch.push({ line, text: decode(buffer, start, end) });
          start = end + 1;
          if (needle && nextMarker !== -1 && nextMarker < start) nextMarker = buffer.indexOf(needle, start);
        }
        rest = buffer.subarray(start);
        if (rest.length > MAX_LINE_BYTES) throw new LineTooLong(line + 1);
        if (batch.length > 0) yield batch;
      }
      if (rest.length > 0 && (!needle || rest.includes(needle))) yield [{ line: line + 1, text: decode(rest, 0, rest.length) }];
    } finally {
      input.destroy();
    }
  };
}
