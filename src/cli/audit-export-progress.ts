import type { ProgressSink } from "./progress.js";

const REDRAW_MS = 100;
const LOG_EVERY = 10_000;

/**
 * Progress of an export: entries written and how far through the time range they reach. The
 * export is oldest first, so the last entry's time says how much of the range is done without
 * counting the matches first. On a terminal one line is redrawn; elsewhere a line per 10,000.
 */
export class AuditExportProgress {
  private count = 0;
  private lastDraw = 0;
  private reached?: Date;
  private readonly started = performance.now();

  constructor(
    private readonly sink: ProgressSink,
    private readonly from: Date | undefined,
    private readonly until: Date | undefined,
  ) {}

  advance(at: Date | undefined): void {
    this.count++;
    this.reached = at ?? this.reached;
    const now = performance.now();
    if (this.sink.isTTY ? now - this.lastDraw >= REDRAW_MS : this.count % LOG_EVERY === 0) {
      this.lastDraw = now;
      this.sink.write(this.sink.isTTY ? `\r${this.line(now)}\x1b[K` : `${this.line(now)}\n`);
    }
  }

  finish(): void {
    const line = `${this.line(performance.now(), true)}`;
    this.sink.write(this.sink.isTTY ? `\r${line}\x1b[K\n` : `${line}\n`);
  }

  private line(now: number, done = false): string {
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = Math.round(this.count / seconds);
    const where = this.reached ? ` up to ${this.reached.toISOString()}` : "";
    return `audit export: ${this.count} entries${where}${done ? " (done)" : this.percent()}  ${rate}/s`;
  }

  private percent(): string {
    if (!this.reached) return "";
    const start = (this.from ?? this.reached).getTime();
    const end = (this.until ?? new Date()).getTime();
    if (end <= start) return "";
    return ` (${Math.min(100, Math.max(0, ((this.reached.getTime() - start) / (end - start)) * 100)).toFixed(0)}% of the range)`;
  }
}
