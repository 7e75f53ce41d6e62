import type { ChainReport } from "../../domain/audit/chain/chain-link.js";
import type { ExportVerdict } from "./verify-export.js";

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** How far the checkpoints vouch for an intact export: the part after the last one is only consistent. */
function coverage(report: ChainReport): string {
  const checkpoint = report.lastVerifiedCheckpoint;
  if (!checkpoint) return "no checkpoint covers them: the chain is consistent, but nothing signed shows that it was not rewritten whole";
  const after = report.lastSequence - checkpoint.sequence;
  const covered = `${count(report.checkpointsChecked, "checkpoint", "checkpoints")} verified, covered up to sequence ${checkpoint.sequence} (signed ${checkpoint.signedAt.toISOString()} with key ${checkpoint.keyId})`;
  if (after === 0) return `${covered}; every entry is covered`;
  return `${covered}; ${count(after, "entry", "entries")} after the last checkpoint ${after === 1 ? "is" : "are"} not yet covered`;
}

/** The one line `audit verify` prints. */
export function verdictLine(verdict: ExportVerdict): string {
  switch (verdict.kind) {
    case "intact": {
      const { report, tenantId } = verdict;
      if (report.entriesChecked === 0) return "intact: the export holds no entries";
      const of = tenantId ? ` of tenant ${tenantId}` : "";
      return `intact: ${count(report.entriesChecked, "entry", "entries")}${of} (sequence ${report.firstSequence} to ${report.lastSequence}), ${coverage(report)}`;
    }
    case "tampered": {
      const { problem } = verdict;
      const entry = problem.entryId ? `, entry ${problem.entryId}` : "";
      return `TAMPERED: ${problem.kind} at sequence ${problem.sequence}${entry}: ${problem.message}`;
    }
    case "malformed":
      return `MALFORMED: line ${verdict.line}: ${verdict.message}`;
  }
}

/** The verdict for programs (--json). */
export function verdictJson(verdict: ExportVerdict): Record<string, unknown> {
  switch (verdict.kind) {
    case "intact": {
      const { report, tenantId } = verdict;
      const checkpoint = report.lastVerifiedCheckpoint;
      return {
        intact: true,
        tenantId,
        entries: report.entriesChecked,
        firstSequence: report.firstSequence,
        lastSequence: report.lastSequence,
        checkpointsVerified: report.checkpointsChecked,
        coveredThrough: checkpoint?.sequence ?? 0,
        coveredSignedAt: checkpoint?.signedAt.toISOString(),
      };
    }
    case "tampered":
      return { intact: false, problem: verdict.problem };
    case "malformed":
      return { intact: false, malformed: { line: verdict.line, message: verdict.message } };
  }
}
