/**
 * Turns of the uploads-peers group: one engine's clients (in the client processes) for a while,
 * then the wait until the stack is back at idle; around it the CPU of every stack process from
 * /proc (bench/proc-cpu.ts) and MinIO's request counter, so cost per upload is counted per component.
 */
import { cpuDelta, cpuSnapshot, emptyCpu, type Component } from "../proc-cpu.js";
import { sleep } from "../support.js";
import { balancedOrders } from "../balanced-order.js";
import { addClientTally, emptyClientTally, type ClientTally } from "./client-protocol.js";
import type { ClientProcesses } from "./client-processes.js";
import type { EngineName, PayloadSize } from "./engines.js";

/**
 * After a turn, the next starts once the components that finish an engine's work in the
 * background (the worker, Temporal, PostgreSQL) are back at their idle CPU: each used at most
 * SETTLE_MARGIN_MS of CPU above its idle rate over a window of SETTLE_WINDOW_MS (/proc counts in
 * 10 ms ticks). At least one window, at most SETTLE_MAX_MS.
 */
const SETTLE_WINDOW_MS = 500;
const SETTLE_MARGIN_MS = 20;
const SETTLE_MAX_MS = 15_000;
const SETTLED: Component[] = ["worker", "temporal", "postgres"];

export interface Tally {
  /** What the engine's clients did, and their CPU (cpuMs), summed over its turns. */
  client: ClientTally;
  seconds: number;
  /** The stack's CPU per component, including the wait after each turn. */
  cpu: Record<Component, number>;
  windowSeconds: number;
  /** Time after this engine's turns until the stack was back at idle. */
  settleSeconds: number;
  requests: number;
  requestsKnown: boolean;
  /** The clients the engine's turns ran with (its saturation, found by saturation.ts). */
  clients: number;
}

export const emptyTally = (clients = 0): Tally => ({
  client: emptyClientTally(),
  seconds: 0,
  cpu: emptyCpu(),
  windowSeconds: 0,
  settleSeconds: 0,
  requests: 0,
  requestsKnown: true,
  clients,
});

export interface TurnContext {
  clients: ClientProcesses;
  /** MinIO's request counter (undefined when unreadable). */
  readRequests(): Promise<number | undefined>;
  /** CPU ms per second of each component with nothing running. */
  idle: Record<Component, number>;
}

/** One engine's turn of `clients` closed-loop clients for `seconds`, added into `into`. */
export async function turn(context: TurnContext, engine: EngineName, size: PayloadSize, seconds: number, clients: number, into: Tally): Promise<void> {
  const cpuBefore = cpuSnapshot();
  const requestsBefore = await context.readRequests();
  const done = await context.clients.turn(engine, size, seconds, clients);
  const settled = await settle(context.idle);
  const cpu = cpuDelta(cpuBefore, cpuSnapshot());
  const requestsAfter = await context.readRequests();
  addClientTally(into.client, done.tally);
  into.seconds += done.seconds;
  into.windowSeconds += done.seconds + settled;
  into.settleSeconds += settled;
  for (const [name, ms] of Object.entries(cpu)) into.cpu[name as Component] += ms;
  if (requestsBefore === undefined || requestsAfter === undefined) into.requestsKnown = false;
  else into.requests += requestsAfter - requestsBefore;
}

/** CPU ms per second each component uses with no upload running (the stack's own background). */
export async function idleRates(seconds: number): Promise<Record<Component, number>> {
  const before = cpuSnapshot();
  await sleep(seconds * 1000);
  const used = cpuDelta(before, cpuSnapshot());
  return Object.fromEntries(Object.entries(used).map(([c, ms]) => [c, ms / seconds])) as Record<Component, number>;
}

/** Seconds until SETTLED components are back at their idle CPU (see SETTLE_WINDOW_MS). */
async function settle(idle: Record<Component, number>): Promise<number> {
  const started = performance.now();
  for (;;) {
    const before = cpuSnapshot();
    await sleep(SETTLE_WINDOW_MS);
    const used = cpuDelta(before, cpuSnapshot());
    const busy = SETTLED.some((c) => used[c] > idle[c] * (SETTLE_WINDOW_MS / 1000) + SETTLE_MARGIN_MS);
    if (!busy || performance.now() - started >= SETTLE_MAX_MS) return (performance.now() - started) / 1000;
  }
}

/**
 * `passes` over the balanced orders (balanced-order.ts: each engine follows every other equally
 * often), one turn per engine in each order, each engine at its own concurrency.
 */
export async function rounds(
  context: TurnContext,
  concurrency: Map<EngineName, number>,
  size: PayloadSize,
  seconds: number,
  passes: number,
  progress: (line: string) => void,
): Promise<Map<EngineName, Tally>> {
  const engines = [...concurrency.keys()];
  const tallies = new Map(engines.map((e) => [e, emptyTally(concurrency.get(e))]));
  const orders = Array.from({ length: passes }, () => balancedOrders(engines)).flat();
  for (const [round, order] of orders.entries()) {
    for (const engine of order) {
      const clients = concurrency.get(engine)!;
      progress(`uploads-peers: ${size} round ${round + 1}/${orders.length}, ${engine}, ${clients} clients for ${seconds} s`);
      const t = tallies.get(engine)!;
      await turn(context, engine, size, seconds, clients, t);
      progress(`uploads-peers:   ${engine}: ${t.client.uploads} so far, ${t.client.errors} errors${engine === "ours" ? `, ${t.client.notReady.length} not READY` : ""}`);
    }
  }
  return tallies;
}
