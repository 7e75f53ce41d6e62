/**
 * bench/results.json: the figures of the last full run, and those a partial run (BENCH_ONLY)
 * measured since, each partial run named with its groups and machine line, so a table that
 * mixes runs says which rows came from which.
 */
import type { Figure } from "./figure.js";
import type { Machine } from "./machine.js";

export interface PartialRun {
  groups: string[];
  machine: Machine;
  /** The figures it wrote, by name. */
  figures: string[];
}

export interface ResultsFile {
  machine: Machine;
  results: Figure[];
  partialRuns?: PartialRun[];
}

/**
 * A figure's identity: its name and its baseline's. Some names recur with other baselines (ours
 * against tusd, against direct PutObject, against the Temporal floor), and each is its own row.
 */
const key = (figure: Figure) => `${figure.name}\u0000${figure.baseline?.name ?? ""}`;

/**
 * A full run replaces everything. A partial one replaces its figures (by name and baseline),
 * appends new ones, drops the rows its groups measured before and no longer do (a renamed or
 * removed figure), and keeps the rest.
 */
export function mergeResults(previous: ResultsFile | undefined, run: { machine: Machine; figures: Figure[]; groups: string[] | undefined }): ResultsFile {
  if (!previous || !run.groups) return { machine: run.machine, results: run.figures };
  const fresh = new Map(run.figures.map((f) => [key(f), f]));
  const ranGroups = new Set(run.groups);
  const outdated = (f: Figure) => f.group !== undefined && ranGroups.has(f.group) && !fresh.has(key(f));
  const kept = previous.results.filter((f) => !outdated(f)).map((f) => fresh.get(key(f)) ?? f);
  const previousKeys = new Set(previous.results.map(key));
  const added = run.figures.filter((f) => !previousKeys.has(key(f)));
  const names = run.figures.map((f) => f.name);
  const results = [...kept, ...added];
  // An earlier partial run names only the rows still its own: not remeasured now, not dropped.
  const remaining = new Set(results.map((f) => f.name));
  const earlier = (previous.partialRuns ?? [])
    .map((p) => ({ ...p, figures: p.figures.filter((name) => !names.includes(name) && remaining.has(name)) }))
    .filter((p) => p.figures.length > 0);
  return { machine: previous.machine, results, partialRuns: [...earlier, { groups: run.groups, machine: run.machine, figures: names }] };
}
