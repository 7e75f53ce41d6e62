import { nodeChainCrypto } from "../../app/audit/chain/chain-crypto.js";
import type { PublicKeyRing } from "../../app/audit/chain/checkpoint-signature.js";
import { fieldsDifferingFromCanonical, parseCanonical, type ShownEntry } from "../../domain/audit/chain/canonical-entry.js";
import { type ChainedEntry, type ChainProblem, type ChainReport, type Checkpoint, GENESIS_HASH } from "../../domain/audit/chain/chain-link.js";
import { ChainVerifier } from "../../domain/audit/chain/chain-verifier.js";
import { CHECKPOINT_MARKER, type ExportLine, MalformedLine, parseExportLine } from "./export-line.js";
import { type LineSource, LineTooLong, type NumberedLine } from "./file-lines.js";

export type ExportVerdict =
  | { kind: "intact"; report: ChainReport; tenantId: string | undefined }
  | { kind: "tampered"; problem: ChainProblem }
  | { kind: "malformed"; line: number; message: string };

class Malformed {
  constructor(readonly line: number, readonly message: string) {}
}

/** Parses each line and hands it to `visit` until it returns false; batches keep the per-line cost synchronous. */
async function eachLine(lines: AsyncIterable<NumberedLine[]>, visit: (parsed: ExportLine, line: number) => boolean): Promise<void> {
  try {
    for await (const batch of lines) {
      for (const { line, text } of batch) {
        let parsed: ExportLine;
        try {
          parsed = parseExportLine(text);
        } catch (error) {
          if (error instanceof MalformedLine) throw new Malformed(line, error.message);
          throw error;
        }
        if (!visit(parsed, line)) return;
      }
    }
  } catch (error) {
    if (error instanceof LineTooLong) throw new Malformed(error.line, error.message);
    throw error;
  }
}

/**
 * Verifies an NDJSON export offline. The export writes its checkpoints after its entries and the
 * verifier needs them first, so the file is read twice: the first pass keeps the checkpoint lines,
 * the second streams the entries through the verifier. Entries are never held.
 *
 * The chain must start right after `anchor`: sequence 1 after the genesis hash for a whole export,
 * the last entry of the archive before for an incremental one. An export that does not (a filtered
 * one, or one whose first entries were cut) cannot show that nothing is missing, and is reported
 * as REMOVED at the first sequence it lacks. Beyond the chain, each entry's shown fields must say
 * what its canonical text (which the hash covers) says, and every entry must be of one tenant.
 */
export async function verifyExport(source: LineSource, keys: PublicKeyRing, anchor = { sequence: 0, hash: GENESIS_HASH }): Promise<ExportVerdict> {
  try {
    const checkpoints: Checkpoint[] = [];
    await eachLine(source(CHECKPOINT_MARKER), (parsed) => {
      if (parsed.kind === "checkpoint") checkpoints.push(parsed.checkpoint);
      return true;
    });
    const check = new EntryCheck(new ChainVerifier(checkpoints, nodeChainCrypto(keys), anchor), checkpoints.length);
    await eachLine(source(), (parsed, line) => check.next(parsed, line));
    return check.verdict();
  } catch (error) {
    if (error instanceof Malformed) return { kind: "malformed", line: error.line, message: error.message };
    throw error;
  }
}

/** The second pass: each entry through the verifier, then its shown fields and its tenant. */
class EntryCheck {
  private tenantId: string | undefined;
  private checkpointsSeen = 0;
  private problem: ChainProblem | undefined;

  constructor(private readonly verifier: ChainVerifier, private readonly checkpointLines: number) {}

  /** False once a problem is found: the rest of the file is not read. */
  next(parsed: ExportLine, line: number): boolean {
    // A checkpoint spelled so that the first pass missed it (its key escaped) would go unchecked.
    if (parsed.kind === "checkpoint" && ++this.checkpointsSeen > this.checkpointLines) throw new Malformed(line, "a checkpoint line the first pass did not find (its key is escaped)");
    if (parsed.kind !== "entry") return true;
    this.verifier.push(parsed.link);
    this.problem = this.verifier.found ?? this.shownProblem(parsed.link, parsed.shown);
    return !this.problem;
  }

  verdict(): ExportVerdict {
    if (this.problem) return { kind: "tampered", problem: this.problem };
    const report = this.verifier.finish();
    return report.problem ? { kind: "tampered", problem: report.problem } : { kind: "intact", report, tenantId: this.tenantId };
  }

  private shownProblem(link: ChainedEntry, shown: ShownEntry): ChainProblem | undefined {
    const sequence = link.sequence;
    if (sequence === null) return undefined;
    const canonical = parseCanonical(link.canonical);
    const at = `entry ${link.id} at sequence ${sequence}`;
    if (!canonical) return { kind: "EDITED", sequence, entryId: link.id, message: `${at} was edited in the export: its canonical text is not one this verifier reads` };
    const differing = fieldsDifferingFromCanonical(shown, canonical);
    if (differing.length > 0) {
      const fields = `${differing.join(", ")} ${differing.length > 1 ? "are" : "is"}`;
      return { kind: "EDITED", sequence, entryId: link.id, message: `${at} was edited in the export: its ${fields} not what its canonical form (which the hash covers) says` };
    }
    this.tenantId ??= canonical.tenantId;
    if (canonical.tenantId !== this.tenantId) {
      return { kind: "INSERTED", sequence, entryId: link.id, message: `${at} belongs to tenant ${canonical.tenantId}, the export's entries before it to ${this.tenantId}` };
    }
    return undefined;
  }
}
