import { Transform } from "node:stream";

export interface ProgressSink {
  write(text: string): void;
  isTTY: boolean;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * A progress bar on stderr: bytes, percentage and average rate. On a terminal it redraws one line
 * (at most every 100 ms); elsewhere (a log, a pipe) it writes a line at every quarter, so logs stay
 * short.
 */
export class ProgressBar {
  private done = 0;
  private lastDraw = 0;
  private lastQuarter = -1;
  private readonly started: number;

  constructor(
    private readonly sink: ProgressSink,
    private readonly label: string,
    private readonly total: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  /** A pass-through stream that advances the bar by what flows through it. */
  meter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.advance(chunk.length);
        callback(null, chunk);
      },
    });
  }

  advance(bytes: number): void {
    this.done += bytes;
    const t = this.now();
    if (this.sink.isTTY) {
      if (t - this.lastDraw >= REDRAW_MS) {
        this.lastDraw = t;
        this.sink.write(`\r${this.line(t)}\x1b[K`);
      }
      return;
    }
    const quarter = this.total > 0 ? Math.floor((this.done / this.total) * 4) : 4;
    if (quarter > this.lastQuarter && quarter < 4) {
      this.lastQuarter = quarter;
      this.sink.write(`${this.line(t)}\n`);
    }
  }

  finish(): void {
    const line = this.line(this.now());
    this.sink.write(this.sink.isTTY ? `\r${line}\x1b[K\n` : `${line}\n`);
  }

  private line(t: number): string {
    const fraction = this.total > 0 ? Math.min(1, this.done / this.total) : 1;
    const filled = Math.round(fraction * BAR_WIDTH);
    const seconds = Math.max((t - this.started) / 1000, 0.001);
    const percent = `${(fraction * 100).toFixed(0)}%`.padStart(4);
    const bar = `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}]`;
    return `${this.label} ${bar} ${percent}  ${formatBytes(this.done)} / ${formatBytes(this.total)}  ${formatBytes(this.done / seconds)}/s`;
  }
}
