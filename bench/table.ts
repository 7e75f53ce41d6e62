/** The figures as an aligned text table (terminal) and as a markdown table (README). */
import type { Figure } from "./figure.js";
import { machineLine, type Machine } from "./machine.js";
import type { PartialRun } from "./results-file.js";

const HEADERS = ["Benchmark", "Ours", "Baseline", "Ratio", "Notes"];

function rows(figures: readonly Figure[]): string[][] {
  return figures.map((f) => [
    f.name,
    quantity(f.value, f.unit),
    f.baseline ? `${quantity(f.baseline.value, f.baseline.unit)} (${f.baseline.name})` : "-",
    f.ratio === null ? "-" : `${number(f.ratio)}×`,
    f.notes ?? "",
  ]);
}

export function textTable(figures: readonly Figure[]): string {
  const all = [HEADERS, ...rows(figures)];
  const widths = HEADERS.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd();
  return [line(all[0]), widths.map((w) => "-".repeat(w)).join("  "), ...all.slice(1).map(line)].join("\n");
}

export function markdownTable(figures: readonly Figure[], machine: Machine, partialRuns: readonly PartialRun[] = []): string {
  const escape = (cell: string) => cell.replaceAll("|", "\\|");
  const line = (row: string[]) => `| ${row.map(escape).join(" | ")} |`;
  return [
    `Measured on ${machineLine(machine)}. Ratio = ours ÷ baseline. Baselines are measured in the same run, except the fixed references: the spec's 1-3 s, file sizes, the sweep interval and Temporal's limits.`,
    ...partialRuns.map((run) => `\nRows of a later run of ${run.groups.join(", ")} only (${run.figures.join("; ")}): measured on ${machineLine(run.machine)}.`),
    "",
    line(HEADERS),
    line(HEADERS.map(() => "---")),
    ...rows(figures).map(line),
    "",
  ].join("\n");
}

function quantity(value: number, unit: string): string {
  return `${number(value)} ${unit}`;
}

/** Three significant digits, thousands grouped; tiny ratios keep two significant digits. */
function number(value: number): string {
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString("en-US");
  if (magnitude >= 1) return String(Number(value.toPrecision(3)));
  return String(Number(value.toPrecision(2)));
}
