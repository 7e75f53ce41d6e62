/**
 * The concurrency at which an engine peaks, found by the bench: short turns at rising client
 * counts until one no longer raises the rate by GAIN (or its clients see errors); the best level
 * is the engine's saturation. Each engine is then measured at its own, so that no engine is held
 * below its peak (cores left idle) or pushed past it by a concurrency chosen for another.
 */
import type { EngineName, PayloadSize } from "./engines.js";
import { emptyTally, turn, type TurnContext } from "./turns.js";

/** A level must beat the best before it by this factor for the search to go on. */
const GAIN = 1.05;

export const CLIENT_LADDERS: Record<PayloadSize, number[]> = { small: [8, 16, 32, 64, 128], large: [4, 8, 16, 32, 64] };

export interface Level {
  clients: number;
  /** Uploads per second. */
  rate: number;
  errors: number;
}

export interface Saturation {
  clients: number;
  /** Every level tried, in order. */
  levels: Level[];
}

/** The level with the best rate among those without errors (the first level when every one erred). */
export function peakOf(levels: readonly Level[]): Level {
  const clean = levels.filter((l) => l.errors === 0);
  return clean.length ? clean.reduce((best, l) => (l.rate > best.rate ? l : best)) : levels[0]!;
}

/** Whether the search climbs on after `levels`: the last one erred nowhere and beat every level before it by GAIN. */
export function climbsOn(levels: readonly Level[]): boolean {
  const last = levels.at(-1);
  if (!last) return true;
  if (last.errors > 0) return false;
  const before = levels.slice(0, -1);
  return before.length === 0 || last.rate > peakOf(before).rate * GAIN;
}

export async function saturation(context: TurnContext, engine: EngineName, size: PayloadSize, seconds: number, progress: (line: string) => void): Promise<Saturation> {
  const levels: Level[] = [];
  for (const clients of CLIENT_LADDERS[size]) {
    const tally = emptyTally(clients);
    await turn(context, engine, size, seconds, clients, tally);
    const level = { clients, rate: tally.client.uploads / tally.seconds, errors: tally.client.errors };
    levels.push(level);
    progress(`uploads-peers: ${size} saturation of ${engine}: ${clients} clients, ${level.rate.toFixed(1)} uploads/s, ${level.errors} errors`);
    if (!climbsOn(levels)) break;
  }
  return { clients: peakOf(levels).clients, levels };
}

export const describeSaturation = (s: Saturation) => s.levels.map((l) => `${l.clients}: ${l.rate.toFixed(1)}${l.errors ? ` (${l.errors} errors)` : ""}`).join(", ");
