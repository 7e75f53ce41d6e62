import { type ChainedEntry, type ChainProblem, type ChainReport, type Checkpoint, GENESIS_HASH } from "./chain-link.js";

/** The cryptography the verifier needs, given to it so that the walk itself stays pure. */
export interface ChainCrypto {
  /** SHA-256 of the previous hash's bytes and the canonical text's UTF-8 bytes, hex. */
  linkHash(previousHash: string, canonical: string): string;
  /** Why a checkpoint's signature does not verify with the keys at hand; undefined when it does. */
  signatureProblem(checkpoint: Checkpoint): string | undefined;
}

type SealedEntry = ChainedEntry & { sequence: number };

interface Accepted {
  id: string;
  sequence: number;
  hash: string;
  previousHash: string;
}

/**
 * Walks one tenant's chain in sequence order and names the first place it is broken. It holds two
 * links and the checkpoints, never the chain, so a verification of millions of entries runs in
 * constant memory, online (the VerifyAuditTrail RPC) or offline (`cli audit verify`).
 *
 * Each entry is checked on its own first (its hash covers its canonical form and its predecessor's
 * hash), then against its neighbour: a gap in the sequence is a removal, a predecessor that is the
 * one before the previous entry makes that entry an insertion, and a predecessor that arrives next
 * is a reorder. Unsealed rows (no sequence) are insertions. Checkpoints pin the hash at their
 * sequence, which catches a chain rewritten end to end and a tail cut off.
 */
export class ChainVerifier {
  private readonly checkpoints = new Map<number, Checkpoint>();
  private readonly badSignatures: ChainProblem[] = [];
  private previous: Accepted | undefined;
  private beforePrevious: Accepted | undefined;
  /** An entry whose predecessor is not the previous one, held until the next entry tells why. */
  private suspect: ChainedEntry | undefined;
  private problem: ChainProblem | undefined;
  private first = 0;
  private entries = 0;
  private checkpointsChecked = 0;
  private lastVerifiedCheckpoint: Checkpoint | undefined;

  /**
   * `checkpoints`: those that may cover the range, in any order. `anchor`: the hash the range's
   * first entry must follow, when known; without it a range starting at sequence 1 must follow
   * the genesis hash and a later one is taken as it comes (a checkpoint then pins it).
   */
  constructor(
    checkpoints: Iterable<Checkpoint>,
    private readonly crypto: ChainCrypto,
    private readonly anchor?: { sequence: number; hash: string }) {
    for (const checkpoint of checkpoints) {
      const why = crypto.signatureProblem(checkpoint);
      if (why) this.badSignatures.push({ kind: "BAD_SIGNATURE", sequence: checkpoint.sequence, message: why });
      else this.checkpoints.set(checkpoint.sequence, checkpoint);
    }
    this.badSignatures.sort((a, b) => a.sequence - b.sequence);
  }

  get found(): ChainProblem | undefined {
    return this.problem;
  }

  /** The next entry: sealed ones in sequence order, unsealed ones anywhere. */
  push(entry: ChainedEntry): void {
    if (this.problem) return;
    if (entry.sequence === null) {
      this.fail({ kind: "INSERTED", sequence: (this.previous?.sequence ?? this.anchor?.sequence ?? 0) + 1, entryId: entry.id, message: `entry ${entry.id} is not part of the chain: it was inserted without being sealed` });
      return;
    }
    this.entries += 1;
    if (this.crypto.linkHash(entry.previousHash, entry.canonical) !== entry.hash) {
      this.resolveSuspect(undefined);
      this.fail({ kind: "EDITED", sequence: entry.sequence, entryId: entry.id, message: `entry ${entry.id} at sequence ${entry.sequence} was edited: its fields no longer hash to its stored hash` });
      return;
    }
    if (this.suspect) {
      this.resolveSuspect(entry);
      return;
    }
    if (!this.previous && !this.begin(entry as SealedEntry)) return;
    const previous = this.previous!;
    const expected = previous.sequence + 1;
    if (entry.sequence > expected) {
      // Held: the entry it skips may come next (two lines of an export swapped).
      this.suspect = entry;
      return;
    }
    if (entry.sequence < expected) {
      this.fail({ kind: "REORDERED", sequence: entry.sequence, entryId: entry.id, message: `entry ${entry.id} carries sequence ${entry.sequence} again after ${previous.sequence}: entries were moved` });
      return;
    }
    if (entry.previousHash === previous.hash) {
      this.accept(entry);
      return;
    }
    if (this.beforePrevious && entry.previousHash === this.beforePrevious.hash) {
      this.fail({ kind: "INSERTED", sequence: previous.sequence, entryId: previous.id, message: `entry ${previous.id} at sequence ${previous.sequence} was inserted: the entry after it follows the one before it` });
      return;
    }
    this.suspect = entry;
  }

  /** The report, once every entry was pushed. */
  finish(): ChainReport {
    if (this.suspect) this.resolveSuspect(undefined);
    if (!this.problem) this.checkTail();
    return {
      intact: !this.problem,
      firstSequence: this.first,
      lastSequence: this.previous?.sequence ?? 0,
      entriesChecked: this.entries,
      checkpointsChecked: this.checkpointsChecked,
      lastVerifiedCheckpoint: this.lastVerifiedCheckpoint,
      problem: this.problem,
    };
  }

  /**
   * The first entry: accepted as it comes when nothing says what it must follow. Otherwise the
   * anchor (the genesis hash before sequence 1) stands before it as its predecessor, so that it is
   * checked as any other entry is: a forged first entry that the second one skips is inserted,
   * a first entry swapped with the second is moved. False when the entry was taken.
   */
  private begin(entry: SealedEntry): boolean {
    this.first = entry.sequence;
    const anchor = this.anchor ?? (entry.sequence === 1 ? { sequence: 0, hash: GENESIS_HASH } : undefined);
    if (anchor) {
      this.previous = { id: "", sequence: anchor.sequence, hash: anchor.hash, previousHash: "" };
      return true;
    }
    this.accept(entry);
    return false;
  }

  /**
   * `next` follows the suspect: a swap shows as the suspect's predecessor arriving right after it,
   * whether the two swapped their sequence numbers (in the database) or their places (in a file).
   */
  private resolveSuspect(next: ChainedEntry | undefined): void {
    const suspect = this.suspect;
    if (!suspect) return;
    this.suspect = undefined;
    const previous = this.previous!;
    if (next && next.previousHash === previous.hash && suspect.previousHash === next.hash) {
      this.fail({ kind: "REORDERED", sequence: suspect.sequence!, entryId: suspect.id, message: `entry ${suspect.id} at sequence ${suspect.sequence} was moved: it belongs after entry ${next.id}` });
      return;
    }
    const expected = previous.sequence + 1;
    if (suspect.sequence! > expected) {
      this.fail({ kind: "REMOVED", sequence: expected, entryId: suspect.id, message: removedMessage(expected, suspect) });
      return;
    }
    this.fail({ kind: "REMOVED", sequence: suspect.sequence!, entryId: suspect.id, message: `entry ${suspect.id} at sequence ${suspect.sequence} does not follow ${nameOf(previous)}: the entry between them was removed` });
  }

  private accept(entry: ChainedEntry): void {
    const sequence = entry.sequence!;
    const badSignature = this.badSignatures[0];
    if (badSignature && badSignature.sequence <= sequence) {
      this.fail(badSignature);
      return;
    }
    const checkpoint = this.checkpoints.get(sequence);
    if (checkpoint && checkpoint.hash !== entry.hash) {
      this.fail({ kind: "CHECKPOINT_MISMATCH", sequence, entryId: entry.id, message: `the chain's hash at sequence ${sequence} is not the one signed at ${checkpoint.signedAt.toISOString()}: the chain up to it was rewritten` });
      return;
    }
    if (checkpoint) {
      this.checkpointsChecked += 1;
      this.lastVerifiedCheckpoint = checkpoint;
    }
    this.beforePrevious = this.previous;
    this.previous = { id: entry.id, sequence, hash: entry.hash, previousHash: entry.previousHash };
  }

  /** Checkpoints past the last entry: the chain was cut before them (a bad signature there too). */
  private checkTail(): void {
    const last = this.previous?.sequence ?? this.anchor?.sequence ?? 0;
    const badSignature = this.badSignatures.find((problem) => problem.sequence > last);
    const beyond = [...this.checkpoints.keys()].filter((sequence) => sequence > last).sort((a, b) => a - b);
    if (badSignature && (beyond.length === 0 || badSignature.sequence < beyond[0]!)) {
      this.fail(badSignature);
      return;
    }
    if (beyond.length > 0) {
      const covered = beyond.at(-1)!;
      this.fail({ kind: "TRUNCATED", sequence: last + 1, message: `the chain ends at sequence ${last} but a checkpoint covers it up to ${covered}: entries ${last + 1} to ${covered} were cut off` });
    }
  }

  private fail(problem: ChainProblem): void {
    this.problem ??= problem;
  }
}

function removedMessage(missing: number, next: ChainedEntry): string {
  const through = next.sequence! - 1;
  const range = through > missing ? `entries ${missing} to ${through} are` : `entry ${missing} is`;
  return `${range} missing before entry ${next.id} at sequence ${next.sequence}`;
}

/** The anchor before a range's first entry has no id. */
function nameOf(link: Accepted): string {
  if (link.id) return `entry ${link.id}`;
  return link.sequence === 0 ? "the genesis hash" : `the range's anchor at sequence ${link.sequence}`;
}
