/**
 * 5. The CSV check in process: scanFile over a generated 50 MiB source (never held whole),
 * against streaming the same chunks through a TextDecoder only (the least any UTF-8 check does);
 * and its peak RSS growth, in a fresh process, against the file size (what holding it would cost).
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ByteSource } from "../src/domain/files/checks/byte-source.js";
import { scanFile } from "../src/domain/files/checks/scanner.js";
import type { BenchGroup } from "./context.js";
import { csvSize, csvSources } from "./csv-source.js";
import { baseline, figure } from "./figure.js";
import { mbPerSecond, median, timed } from "./stats.js";
import { progress } from "./support.js";

const MiB = 1024 * 1024;
const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), "csv-memory-probe.ts");

async function decodeOnly(source: ByteSource): Promise<void> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for await (const bytes of source.stream()) decoder.decode(bytes, { stream: true });
  decoder.decode();
}

async function peakRssGrowthMib(size: number): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", PROBE, String(size)], { encoding: "utf8" });
  const { beforeMib, peakMib } = JSON.parse(stdout) as { beforeMib: number; peakMib: number };
  return peakMib - beforeMib;
}

export const csvScan: BenchGroup = {
  name: "csv",
  kind: "in-process",
  async run(options) {
    const size = csvSize(options.csvMb);
    const source = csvSources(size);
    progress(`CSV scan: ${options.csvRuns} runs over ${size / MiB} MiB`);
    const scanRates: number[] = [];
    const decodeRates: number[] = [];
    for (let run = 0; run < options.csvRuns; run++) {
      const scan = await timed(() => scanFile("text/csv", source()));
      if (!scan.value.passed) throw new Error(`the CSV failed its check: ${JSON.stringify(scan.value.checks)}`);
      scanRates.push(mbPerSecond(size, scan.ms));
      decodeRates.push(mbPerSecond(size, (await timed(() => decodeOnly(source()))).ms));
    }
    const growth = await peakRssGrowthMib(size);
    return [
      figure(`CSV scan throughput, ${size / MiB} MiB`, median(scanRates), "MB/s", baseline("TextDecoder only", median(decodeRates), "MB/s"), `in process, median of ${options.csvRuns}`),
      figure(`CSV scan peak RSS growth, ${size / MiB} MiB`, growth, "MiB", baseline("file size", size / MiB, "MiB"), "fresh process, sampled on every 64 KiB chunk"),
    ];
  },
};
