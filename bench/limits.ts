/**
 * The cost of what a caller controls, at its bound (docs/configuration.md, "Limits"): the worst-case input each
 * scan accepts, per MB of CPU, against one UTF-8 decoding pass over the same bytes (the least any
 * check does); the pathological SVG against the CPU it cost before the bounds; the worst
 * formula evaluation and pattern compilation allowed at save time.
 */
import type { FieldDefinition } from "../src/domain/customfields/definition.js";
import { DEFAULT_FORMULA_LIMITS } from "../src/domain/customfields/formula-budget.js";
import { maxMatchedBytes } from "../src/domain/customfields/pattern-cost.js";
import { programSizeBound } from "../src/domain/customfields/pattern-program.js";
import { checkPattern, compilePattern, DEFAULT_PATTERN_LIMITS, releaseCompiledPatterns } from "../src/domain/customfields/pattern.js";
import { resolveForCreate } from "../src/domain/customfields/values.js";
import { parseNumberText } from "../src/domain/customfields/scalars.js";
import { MAX_VALUE_TEXT_LENGTH } from "../src/domain/customfields/value-size.js";
import { DEFAULT_SVG_LIMITS } from "../src/domain/files/checks/svg-safety.js";
import { scanFile } from "../src/domain/files/checks/scanner.js";
import { DEFAULT_OFFICE_LIMITS } from "../src/domain/files/checks/office-limits.js";
import { MAX_XML_PART_BYTES, MAX_XML_TOTAL_BYTES } from "../src/domain/files/checks/opc-xml.js";
import { DEFAULT_PDF_INFLATION_LIMITS } from "../src/domain/files/checks/pdf-streams.js";
import {
  bufferSource,
  nestedSvg,
  worstCaseCsv,
  worstCasePdfInflation,
  worstCaseSvg,
  worstCaseXlsx,
  worstCaseXlsxInflation,
} from "../test/fixtures/files/index.js";
import { def } from "../test/unit/customfields/fixtures.js";
import type { BenchGroup } from "./context.js";
import { baseline, figure, type Figure } from "./figure.js";
import { median } from "./stats.js";
import { progress } from "./support.js";

const MB = 1e6;
const RUNS = 3;

/** CPU milliseconds (user + system) of this process while `work` runs. */
async function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function medianCpuMs(work: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) samples.push(await cpuMs(work));
  return median(samples);
}

async function decodePass(bytes: Uint8Array): Promise<void> {
  new TextDecoder("utf-8").decode(bytes);
}

interface ScanCase {
  name: string;
  contentType: string;
  bytes: Uint8Array;
  bound: string;
}

async function worstScan({ name, contentType, bytes, bound }: ScanCase): Promise<Figure> {
  progress(`limits: worst-case ${name} scan, ${(bytes.length / MB).toFixed(1)} MB`);
  const result = await scanFile(contentType, bufferSource(bytes));
  const scanMs = await medianCpuMs(() => scanFile(contentType, bufferSource(bytes)));
  const decodeMs = await medianCpuMs(() => decodePass(bytes));
  const perMb = (ms: number) => ms / (bytes.length / MB);
  return figure(
    `Worst-case ${name} scan CPU per MB`,
    perMb(scanMs),
    "ms/MB",
    baseline("UTF-8 decode of the same bytes", perMb(decodeMs), "ms/MB"),
    `${result.passed ? "passes" : "rejected"}; ${bound}; median of ${RUNS}`,
  );
}

/** The most compile work a pattern may still cost (its estimate is just under the bound), against a typical one. */
async function worstPattern(): Promise<Figure> {
  progress("limits: the costliest pattern still accepted");
  const worstMs = await medianCpuMs(async () => checkPattern("^\\p{L}x$"));
  const typicalMs = await medianCpuMs(async () => checkPattern("^[A-Z]{2}-[0-9]{4}$"));
  return figure(
    "Costliest accepted pattern compile CPU (^\\p{L}x$)",
    worstMs,
    "ms",
    baseline("^[A-Z]{2}-[0-9]{4}$", typicalMs, "ms"),
    `estimated compile heap ≤ ${DEFAULT_PATTERN_LIMITS.maxCompileBytes / 1024} KiB (PATTERN_MAX_COMPILE_BYTES); ^\\p{L}{20}$ is refused unbuilt; median of ${RUNS}`,
  );
}

/**
 * The costliest match the program and step bounds still allow: a repeated literal, where every
 * instruction is active in every new DFA state (the slowest measured per step), on the longest
 * value its bound admits, freshly compiled so that no DFA state is cached; against a typical one.
 */
async function worstPatternMatch(): Promise<Figure> {
  progress("limits: the costliest pattern match still accepted");
  const pattern = "a{270}!";
  const instructions = programSizeBound(pattern) ?? 0;
  const value = "a".repeat(maxMatchedBytes(instructions, DEFAULT_PATTERN_LIMITS.maxMatchSteps));
  const firstMatch = (source: string, text: string) => async () => {
    releaseCompiledPatterns();
    const regex = compilePattern(source);
    const before = process.cpuUsage();
    regex.test(text);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  const sample = async (run: () => Promise<number>) => {
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await run());
    return median(samples);
  };
  const worstMs = await sample(firstMatch(pattern, value));
  const typicalMs = await sample(firstMatch("^[A-Z]{2}-[0-9]{4}$", "AB-1234"));
  return figure(
    `Costliest accepted pattern match CPU (${pattern} on ${value.length} bytes)`,
    worstMs,
    "ms",
    baseline("^[A-Z]{2}-[0-9]{4}$ on AB-1234", typicalMs, "ms"),
    `bytes × ${instructions} instructions ≤ ${DEFAULT_PATTERN_LIMITS.maxMatchSteps} steps (PATTERN_MAX_MATCH_STEPS), ≤ ${DEFAULT_PATTERN_LIMITS.maxProgramSize} instructions (PATTERN_MAX_PROGRAM_SIZE); [[:^alpha:]]{1000} is refused unbuilt; first match, median of ${RUNS}`,
  );
}

/**
 * The costliest create the per-request pattern budget still allows: 200 fields (the definition
 * quota) of distinct patterns slowest per step, each sent its longest matchable value, on a cold cache;
 * against one such field. The budget (PATTERN_MAX_REQUEST_STEPS) stops the matches after a few
 * fields, so the ratio stays near budget / one match instead of 200.
 */
async function worstPatternRequest(): Promise<Figure> {
  progress("limits: the costliest create the pattern budget still allows");
  // Distinct patterns, so that no field reuses another's compiled program or DFA states.
  const patternOf = (i: number) => `a{${270 - i}}!`;
  const longest = (pattern: string) => "a".repeat(maxMatchedBytes(programSizeBound(pattern) ?? 0, DEFAULT_PATTERN_LIMITS.maxMatchSteps));
  const fields = (n: number) => Array.from({ length: n }, (_, i) => def(`p${i}`, { displayOrder: i, validation: { pattern: patternOf(i) } }));
  const create = (defs: FieldDefinition[]) => async () => {
    releaseCompiledPatterns();
    try {
      resolveForCreate(defs, Object.fromEntries(defs.map((d) => [d.fieldKey, longest(d.validation.pattern!)])), { entity: {} }, new Date("2026-01-01T00:00:00Z"));
    } catch {
      // Fields past the budget are refused as not checked: the refusal is the point.
    }
  };
  const worstMs = await medianCpuMs(create(fields(200)));
  const oneMs = await medianCpuMs(create(fields(1)));
  return figure(
    `Costliest create under the pattern budget CPU (200 fields of a{71..270}!, each its longest value, cold cache)`,
    worstMs,
    "ms",
    baseline("one field of a{270}!", oneMs, "ms"),
    `matches of a request ≤ ${DEFAULT_PATTERN_LIMITS.maxRequestMatchSteps} steps, compilations ≤ ${DEFAULT_PATTERN_LIMITS.maxRequestCompileSteps} (PATTERN_MAX_REQUEST_*_STEPS); one match ≤ ${DEFAULT_PATTERN_LIMITS.maxMatchSteps}; median of ${RUNS}`,
  );
}

/**
 * The longest text any number parser may see (a custom-field text value at the contract's cap,
 * read as a number by a comparison or formula), built to be refused only at its last character,
 * which made the old regular expression quadratic; against the engine's own Number() on the same
 * text, which is linear.
 */
async function worstNumber(): Promise<Figure> {
  progress("limits: the longest number text a parser may see");
  const text = "1".repeat(MAX_VALUE_TEXT_LENGTH - 1) + "x";
  const parses = 1_000;
  const ours = await medianCpuMs(async () => {
    for (let i = 0; i < parses; i++) parseNumberText(text);
  });
  const engine = await medianCpuMs(async () => {
    for (let i = 0; i < parses; i++) Number(text);
  });
  return figure(
    `Longest number text (${MAX_VALUE_TEXT_LENGTH} chars, refused at the end) parse CPU, ${parses} parses`,
    ours,
    "ms",
    baseline("Number() on the same text", engine, "ms"),
    `value text ≤ ${MAX_VALUE_TEXT_LENGTH} chars (contract); NUMBER values ≤ 100 chars; linear scanner; median of ${RUNS}`,
  );
}

/**
 * The costliest resolve the formula budget still allows: one text field at the text bound read by
 * as many computed fields as the step budget admits, against the same definitions over a short text.
 */
async function worstFormulas(): Promise<Figure> {
  progress("limits: the costliest formula evaluation still accepted");
  const fields = 150;
  const defs: FieldDefinition[] = [
    def("s", { displayOrder: 0 }),
    ...Array.from({ length: fields }, (_, i) => def(`f${i}`, { fieldType: "COMPUTED", computedFormula: "uppercase(s) + ''", displayOrder: i + 1 })),
  ];
  const resolve = (text: string) => async () => resolveForCreate(defs, { s: text }, { entity: {} }, new Date("2026-01-01T00:00:00Z"));
  const worstMs = await medianCpuMs(resolve("x".repeat(DEFAULT_FORMULA_LIMITS.maxTextLength - 1)));
  const typicalMs = await medianCpuMs(resolve("x".repeat(10)));
  return figure(
    `Costliest accepted resolve CPU (${fields} computed fields over a ${DEFAULT_FORMULA_LIMITS.maxTextLength - 1}-char text)`,
    worstMs,
    "ms",
    baseline("the same over a 10-char text", typicalMs, "ms"),
    `text ≤ ${DEFAULT_FORMULA_LIMITS.maxTextLength} chars (FORMULA_MAX_TEXT_LENGTH), ≤ ${DEFAULT_FORMULA_LIMITS.maxSteps} steps per resolve (FORMULA_MAX_STEPS); median of ${RUNS}`,
  );
}

/**
 * Inflation at its bounds, still accepted: PDF object streams at the per-stream and per-file caps,
 * filled with the name search's slowest input; XLSX relationships parts at the XML caps in a file
 * just large enough for the 100× expansion bound. Per MB of the file, so the ratio to a decode pass
 * over the same bytes is what the bound lets one stored byte cost.
 */
function inflationCases(): ScanCase[] {
  const pdf = DEFAULT_PDF_INFLATION_LIMITS;
  const streams = Math.floor(pdf.maxFileBytes / pdf.maxObjectStreamBytes);
  const xmlParts = Math.floor(MAX_XML_TOTAL_BYTES / MAX_XML_PART_BYTES);
  const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
  return [
    {
      name: `PDF inflation (${streams} object streams of /a/a/...)`,
      contentType: "application/pdf",
      bytes: worstCasePdfInflation(streams, pdf.maxObjectStreamBytes),
      bound: `object stream ≤ ${mib(pdf.maxObjectStreamBytes)} (SCAN_PDF_MAX_OBJECT_STREAM_BYTES), ≤ ${mib(pdf.maxFileBytes)} a file (SCAN_PDF_MAX_INFLATED_BYTES)`,
    },
    {
      name: `XLSX inflation (${xmlParts} relationships parts parsed)`,
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      bytes: worstCaseXlsxInflation(xmlParts, MAX_XML_PART_BYTES - 4096, DEFAULT_OFFICE_LIMITS.maxExpansionRatio),
      bound: `inflated ≤ ${DEFAULT_OFFICE_LIMITS.maxExpansionRatio}× the file, XML read ≤ ${mib(MAX_XML_PART_BYTES)} a part, ${mib(MAX_XML_TOTAL_BYTES)} a file`,
    },
  ];
}

export const limits: BenchGroup = {
  name: "limits",
  kind: "in-process",
  async run() {
    const cases: ScanCase[] = [
      { name: "SVG", contentType: "image/svg+xml", bytes: worstCaseSvg(), bound: `SVG ≤ ${DEFAULT_SVG_LIMITS.maxBytes / 1024 / 1024} MiB, CSS ≤ ${DEFAULT_SVG_LIMITS.maxCssChars} chars per piece` },
      { name: "CSV", contentType: "text/csv", bytes: worstCaseCsv(8 * 1024 * 1024), bound: "file ≤ STORAGE_MAX_FILE_SIZE_BYTES" },
      { name: "XLSX", contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", bytes: worstCaseXlsx(20_000), bound: "declared expansion ≤ 100×, ≤ 1 GiB" },
      ...inflationCases(),
    ];
    const figures: Figure[] = [];
    for (const scanCase of cases) figures.push(await worstScan(scanCase));

    const nested = nestedSvg(100_000);
    progress("limits: the issue's 700 KB nested SVG");
    const nestedMs = await medianCpuMs(() => scanFile("image/svg+xml", bufferSource(nested)));
    figures.push(
      figure("Nested-group SVG (700 KB, 100,000 levels) scan CPU", nestedMs, "ms", baseline("before the bounds (issue #11, fixed reference)", 159_000, "ms"), `rejected at depth ${DEFAULT_SVG_LIMITS.maxDepth} (SCAN_SVG_MAX_DEPTH)`),
    );
    figures.push(await worstNumber(), await worstPattern(), await worstPatternMatch(), await worstPatternRequest(), await worstFormulas());
    return figures;
  },
};
