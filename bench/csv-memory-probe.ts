/**
 * Run as its own process by csv-scan.ts: `node --import tsx bench/csv-memory-probe.ts <bytes>`.
 * A fresh process, because RSS never shrinks back after earlier work in the bench process and
 * would hide the scan's growth. Prints {"beforeMib", "peakMib"} as JSON.
 */
import { scanFile } from "../src/domain/files/checks/scanner.js";
import { csvSources } from "./csv-source.js";
import { collectGarbage, rssMb } from "./memory.js";

const size = Number(process.argv[2]);
const source = csvSources(size);
collectGarbage();
const beforeMib = rssMb();
let peakMib = beforeMib;
// Sampled on every chunk as it arrives: the scan never yields to timers, so an interval would not fire.
const outcome = await scanFile("text/csv", source(), { onProgress: () => (peakMib = Math.max(peakMib, rssMb())) });
if (!outcome.passed) throw new Error(`the CSV failed its check: ${JSON.stringify(outcome.checks)}`);
process.stdout.write(JSON.stringify({ beforeMib, peakMib }));
