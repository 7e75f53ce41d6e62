/** Percentiles and timing. Percentiles use the nearest-rank method: p99 of 20 samples is the max. */
import { performance } from "node:perf_hooks";

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error("percentile of no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

export function mean(samples: readonly number[]): number {
  return samples.reduce((sum, x) => sum + x, 0) / samples.length;
}

/** Milliseconds taken by `work`, and its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** `count` sequential runs of `work`, each timed (ms). */
export async function sampleSequential(count: number, work: (index: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push((await timed(() => work(i))).ms);
  return samples;
}

/** Calls per second that `concurrency` callers complete within `seconds`. */
export async function throughput(seconds: number, concurrency: number, work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let completed = 0;
  const caller = async () => {
    while (performance.now() < deadline) {
      await work();
      completed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return completed / ((performance.now() - started) / 1000);
}

/** MB/s with MB = 10^6 bytes. */
export const mbPerSecond = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
