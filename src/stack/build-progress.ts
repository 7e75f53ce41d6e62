/**
 * What a first start shows while it builds Go tools (several minutes): which tool, with which go
 * command, and for how long so far. Pure, so that the wording and the pacing are tested without
 * building anything; go-binaries.ts does the writing.
 */

export interface RunningBuild {
  name: string;
  /** The go command, e.g. `go install github.com/temporalio/cli/cmd/temporal@v1.5.1`. */
  command: string;
  startedAt: number;
}

/**
 * `terminal`: one status line rewritten in place, so about every second. `log` (CI, a piped
 * stdout): each report is a line kept for good, so at most one per build every 30 s.
 */
export type ProgressMode = "terminal" | "log";

export const PROGRESS_EVERY_MS: Record<ProgressMode, number> = { terminal: 1_000, log: 30_000 };

export function progressDue(mode: ProgressMode, lastShownAt: number, now: number): boolean {
  return now - lastShownAt >= PROGRESS_EVERY_MS[mode];
}

/** `7s`, `1m 23s`, `1h 2m 5s`. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours}h ${minutes}m ${seconds}s`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}

export function buildingLine(build: RunningBuild, now: number): string {
  return `building ${build.name} (${build.command}) ${formatElapsed(now - build.startedAt)}`;
}

export function builtLine(name: string, target: string, startedAt: number, now: number): string {
  return `built ${name} in ${formatElapsed(now - startedAt)}: ${target}`;
}

/**
 * The terminal's status line. A cold start builds several tools at once (MinIO and Temporal, the
 * Temporal server's three); they share the one line, by name only, since each one's command was
 * printed when it started.
 */
export function statusText(builds: readonly RunningBuild[], now: number): string {
  if (builds.length === 0) return "";
  if (builds.length === 1) return buildingLine(builds[0], now);
  return `building ${builds.map((build) => `${build.name} ${formatElapsed(now - build.startedAt)}`).join(", ")}`;
}

/** Cut to the terminal's width: a line that wraps is no longer rewritten in place by `\r`. */
export function fitToWidth(text: string, columns?: number): string {
  if (!columns || columns < 2) return text;
  // The last column stays free: writing into it wraps on some terminals.
  const width = columns - 1;
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}
