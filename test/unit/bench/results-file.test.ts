/**
 * A partial bench run replaces its own rows in bench/results.json and keeps the others; a name
 * that recurs with other baselines is one row per baseline.
 */
import { describe, expect, it } from "vitest";
import { baseline, figure } from "../../../bench/figure.js";
import type { Machine } from "../../../bench/machine.js";
import { mergeResults } from "../../../bench/results-file.js";

const machine = (date: string): Machine => ({ cpu: "test", cores: 2, memoryGiB: 1, node: "v24", date, loadAverage1m: 0 });
const ours = (value: number, against: string) => figure("Uploads/s (ours)", value, "uploads/s", baseline(against, 10, "uploads/s"));

describe("mergeResults", () => {
  it("replaces each row of a recurring name by the one with its baseline", () => {
    const previous = { machine: machine("first"), results: [ours(1, "tusd"), ours(2, "direct"), figure("Other", 5, "ms", null)] };
    const merged = mergeResults(previous, { machine: machine("later"), figures: [ours(3, "tusd"), ours(4, "direct")], groups: ["peers"] });
    expect(merged.results.map((f) => [f.name, f.baseline?.name ?? null, f.value])).toEqual([
      ["Uploads/s (ours)", "tusd", 3],
      ["Uploads/s (ours)", "direct", 4],
      ["Other", null, 5],
    ]);
    expect(merged.partialRuns).toEqual([{ groups: ["peers"], machine: machine("later"), figures: ["Uploads/s (ours)", "Uploads/s (ours)"] }]);
  });

  it("appends a row whose baseline is new, and a full run replaces everything", () => {
    const previous = { machine: machine("first"), results: [ours(1, "tusd")] };
    expect(mergeResults(previous, { machine: machine("later"), figures: [ours(2, "floor")], groups: ["peers"] }).results.map((f) => f.value)).toEqual([1, 2]);
    expect(mergeResults(previous, { machine: machine("later"), figures: [ours(2, "floor")], groups: undefined }).results.map((f) => f.value)).toEqual([2]);
  });

  it("drops the rows a group it ran measured before and no longer does, and keeps other groups' rows", () => {
    const tagged = (name: string, group: string) => ({ ...figure(name, 1, "ms", null), group });
    const previous = { machine: machine("first"), results: [tagged("Old name", "peers"), tagged("Kept", "peers"), tagged("Other group", "audit"), figure("Untagged", 1, "ms", null)] };
    const merged = mergeResults(previous, { machine: machine("later"), figures: [{ ...tagged("Kept", "peers"), value: 2 }, tagged("New name", "peers")], groups: ["peers"] });
    expect(merged.results.map((f) => [f.name, f.value])).toEqual([
      ["Kept", 2],
      ["Other group", 1],
      ["Untagged", 1],
      ["New name", 1],
    ]);
  });

  it("an earlier partial run no longer names rows a later one dropped", () => {
    const tagged = (name: string, group: string) => ({ ...figure(name, 1, "ms", null), group });
    const first = mergeResults({ machine: machine("full"), results: [tagged("Other", "audit")] }, { machine: machine("p1"), figures: [tagged("Old name", "peers"), tagged("Audit row", "audit2")], groups: ["peers", "audit2"] });
    const second = mergeResults(first, { machine: machine("p2"), figures: [tagged("New name", "peers")], groups: ["peers"] });
    expect(second.results.map((f) => f.name)).toEqual(["Other", "Audit row", "New name"]);
    expect(second.partialRuns?.map((p) => p.figures)).toEqual([["Audit row"], ["New name"]]);
  });
});
