import type { Figure } from "./figure.js";
import type { BenchOptions } from "./options.js";
import type { BenchStack } from "./stack.js";

/** What a group that talks to the running stack receives. */
export interface StackContext {
  stack: BenchStack;
  options: BenchOptions;
  /** Worker RSS (MB) right after it started, before any benchmark touched it. */
  workerRssAtStartMb: number | undefined;
}

/** A benchmark group; `name` is what BENCH_ONLY selects. In-process groups need no stack. */
export type BenchGroup =
  | {
      name: string;
      kind: "stack";
      /** Settings the stack needs for this group (its API server and worker get them when the group is selected). */
      stackEnv?: Record<string, string>;
      run(context: StackContext): Promise<Figure[]>;
    }
  | { name: string; kind: "in-process"; run(options: BenchOptions): Promise<Figure[]> };
