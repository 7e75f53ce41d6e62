/**
 * 8. Retention timers at scale: READY IMPORT_FILE objects, each held by its workflow's durable
 * retention timer. Expiry lag (deleted_at − retention_expires_at) against the sweep interval,
 * which is what a cron-only design would give at worst; worker RSS against the worker just after
 * start; the Temporal history per object against the server's default history limits.
 *
 * BENCH_TIMER_MODE picks how the objects are made: "seed" (the default, bench/timer-seeding.ts)
 * inserts the rows and starts their workflows as a retention change does, so thousands fit in a
 * few minutes; "flow" (bench/timer-flow.ts) takes each through the full upload flow, a few per
 * second.
 */
import type { BenchGroup } from "./context.js";
import { runThroughFlow } from "./timer-flow.js";
import { runSeeded } from "./timer-seeding.js";

export const retentionTimers: BenchGroup = {
  name: "timers",
  kind: "stack",
  run: (context) => (context.options.timerMode === "flow" ? runThroughFlow(context) : runSeeded(context)),
};
