/** The chain verifier names the first place a tenant's chain is broken, and how. */
import { describe, expect, it } from "vitest";
import { nodeChainCrypto } from "../../../src/app/audit/chain/chain-crypto.js";
import type { ChainedEntry, Checkpoint } from "../../../src/domain/audit/chain/chain-link.js";
import { GENESIS_HASH } from "../../../src/domain/audit/chain/chain-link.js";
import { ChainVerifier } from "../../../src/domain/audit/chain/chain-verifier.js";
import { canonicalText, chainOf, checkpointAt, fieldsOf, reseal, ringOf, sealed, signingKey } from "./chain-fixtures.js";

const key = signingKey("key-2026");
const ring = ringOf(key);

function verify(entries: ChainedEntry[], checkpoints: Checkpoint[] = [], options: { keys?: ReturnType<typeof ringOf>; anchor?: { sequence: number; hash: string } } = {}) {
  const verifier = new ChainVerifier(checkpoints, nodeChainCrypto(options.keys ?? ring), options.anchor);
  for (const entry of entries) verifier.push(entry);
  return verifier.finish();
}

const GENESIS = { sequence: 0, hash: GENESIS_HASH };
const at = (entries: ChainedEntry[], sequence: number) => entries.find((e) => e.sequence === sequence)!;

describe("ChainVerifier on an intact chain", () => {
  it("checks every entry and every checkpoint, and names the newest one", () => {
    const chain = chainOf(10);
    const report = verify(chain, [checkpointAt(chain[3]!, key), checkpointAt(chain[7]!, key)]);
    expect(report).toMatchObject({ intact: true, firstSequence: 1, lastSequence: 10, entriesChecked: 10, checkpointsChecked: 2 });
    expect(report.lastVerifiedCheckpoint?.sequence).toBe(8);
    expect(report.problem).toBeUndefined();
  });

  it("takes the checkpoints in any order", () => {
    const chain = chainOf(10);
    const report = verify(chain, [checkpointAt(chain[9]!, key), checkpointAt(chain[2]!, key)]);
    expect(report).toMatchObject({ intact: true, checkpointsChecked: 2 });
    expect(report.lastVerifiedCheckpoint?.sequence).toBe(10);
  });

  it("reports an empty range as intact when no checkpoint claims more", () => {
    expect(verify([], [], { anchor: GENESIS })).toMatchObject({ intact: true, firstSequence: 0, lastSequence: 0, entriesChecked: 0 });
  });

  it("verifies a later range that follows its anchor", () => {
    const chain = chainOf(10);
    const report = verify(chain.slice(5), [checkpointAt(chain[8]!, key)], { anchor: { sequence: 5, hash: chain[4]!.hash } });
    expect(report).toMatchObject({ intact: true, firstSequence: 6, lastSequence: 10, entriesChecked: 5, checkpointsChecked: 1 });
  });

  it("keeps a checkpoint signed by a retired key verifiable after a rotation", () => {
    const retired = signingKey("key-2025");
    const chain = chainOf(10);
    const report = verify(chain, [checkpointAt(chain[3]!, retired), checkpointAt(chain[8]!, key)], { keys: ringOf(retired, key) });
    expect(report).toMatchObject({ intact: true, checkpointsChecked: 2 });
    expect(report.lastVerifiedCheckpoint).toMatchObject({ sequence: 9, keyId: "key-2026" });
  });
});

describe("ChainVerifier on a tampered chain", () => {
  it("names an entry whose fields were edited (its canonical form no longer hashes to its hash)", () => {
    const chain = chainOf(10);
    chain[4] = { ...chain[4]!, canonical: canonicalText({ ...fieldsOf(5), actorId: "someone-else" }) };
    expect(verify(chain).problem).toMatchObject({ kind: "EDITED", sequence: 5, entryId: chain[4]!.id });
  });

  it("names an entry whose stored hash was edited", () => {
    const chain = chainOf(10);
    chain[6] = { ...chain[6]!, hash: "ab".repeat(32) };
    expect(verify(chain).problem).toMatchObject({ kind: "EDITED", sequence: 7, entryId: chain[6]!.id });
  });

  it("names the first missing sequence when an entry was deleted", () => {
    const chain = chainOf(10);
    const problem = verify([...chain.slice(0, 4), ...chain.slice(5)]).problem;
    expect(problem).toMatchObject({ kind: "REMOVED", sequence: 5, entryId: chain[5]!.id });
    expect(problem?.message).toContain("entry 5 is missing");
  });

  it("names the range when several entries were deleted", () => {
    const chain = chainOf(10);
    const problem = verify([...chain.slice(0, 2), ...chain.slice(6)]).problem;
    expect(problem).toMatchObject({ kind: "REMOVED", sequence: 3, entryId: chain[6]!.id });
    expect(problem?.message).toContain("entries 3 to 6 are missing");
  });

  it("names a deletion hidden by renumbering the later entries", () => {
    const chain = chainOf(10);
    const renumbered = [...chain.slice(0, 4), ...chain.slice(5).map((e) => ({ ...e, sequence: e.sequence! - 1 }))];
    expect(verify(renumbered).problem).toMatchObject({ kind: "REMOVED", sequence: 5, entryId: chain[5]!.id });
  });

  it("names a deletion of the chain's first entries when the range must start at the genesis", () => {
    const chain = chainOf(10);
    expect(verify(chain.slice(2), [], { anchor: GENESIS }).problem).toMatchObject({ kind: "REMOVED", sequence: 1, entryId: chain[2]!.id });
    expect(verify(chain.slice(1).map((e) => ({ ...e, sequence: e.sequence! - 1 }))).problem).toMatchObject({ kind: "REMOVED", sequence: 1, entryId: chain[1]!.id });
  });

  it("names a row that was never sealed", () => {
    const chain = chainOf(10);
    const forged: ChainedEntry = { id: fieldsOf(99).id, sequence: null, previousHash: "", hash: "", canonical: "" };
    expect(verify([...chain.slice(0, 6), forged, ...chain.slice(6)]).problem).toMatchObject({ kind: "INSERTED", sequence: 7, entryId: forged.id });
  });

  it("names a forged entry that carries a correct link, the later entries renumbered", () => {
    const chain = chainOf(10);
    const forged = sealed(fieldsOf(99).id, 5, chain[3]!.hash, canonicalText(fieldsOf(99)));
    const tampered = [...chain.slice(0, 4), forged, ...chain.slice(4).map((e) => ({ ...e, sequence: e.sequence! + 1 }))];
    expect(verify(tampered).problem).toMatchObject({ kind: "INSERTED", sequence: 5, entryId: forged.id });
  });

  it("names a forged first entry that carries a correct link from the genesis", () => {
    const chain = chainOf(10);
    const forged = sealed(fieldsOf(99).id, 1, GENESIS_HASH, canonicalText(fieldsOf(99)));
    const tampered = [forged, ...chain.map((e) => ({ ...e, sequence: e.sequence! + 1 }))];
    expect(verify(tampered).problem).toMatchObject({ kind: "INSERTED", sequence: 1, entryId: forged.id });
    expect(verify(tampered, [], { anchor: GENESIS }).problem).toMatchObject({ kind: "INSERTED", sequence: 1, entryId: forged.id });
  });

  it("names the moved entry when two entries' sequence numbers were swapped", () => {
    const chain = chainOf(10);
    const swapped = [...chain.slice(0, 4), { ...chain[5]!, sequence: 5 }, { ...chain[4]!, sequence: 6 }, ...chain.slice(6)];
    expect(verify(swapped).problem).toMatchObject({ kind: "REORDERED", sequence: 5, entryId: chain[5]!.id });
  });

  it("names the moved entry when two entries arrive out of sequence order (lines of an export swapped)", () => {
    const chain = chainOf(10);
    const swapped = [...chain.slice(0, 4), chain[5]!, chain[4]!, ...chain.slice(6)];
    expect(verify(swapped).problem).toMatchObject({ kind: "REORDERED", sequence: 6, entryId: chain[5]!.id });
  });

  it("names the first entry when it was swapped with the second", () => {
    const chain = chainOf(10);
    const renumbered = [{ ...chain[1]!, sequence: 1 }, { ...chain[0]!, sequence: 2 }, ...chain.slice(2)];
    expect(verify(renumbered).problem).toMatchObject({ kind: "REORDERED", sequence: 1, entryId: chain[1]!.id });
    expect(verify([chain[1]!, chain[0]!, ...chain.slice(2)], [], { anchor: GENESIS }).problem).toMatchObject({ kind: "REORDERED", sequence: 2, entryId: chain[1]!.id });
  });

  it("names a first entry that does not follow the genesis hash", () => {
    const chain = chainOf(10);
    const forged = sealed(fieldsOf(99).id, 1, "ab".repeat(32), canonicalText(fieldsOf(99)));
    const problem = verify([forged, ...chain.slice(1)]).problem;
    expect(problem).toMatchObject({ kind: "REMOVED", sequence: 1, entryId: forged.id });
    expect(problem?.message).toContain("does not follow the genesis hash");
  });

  it("names an unsealed row before the first entry", () => {
    const forged: ChainedEntry = { id: fieldsOf(99).id, sequence: null, previousHash: "", hash: "", canonical: "" };
    expect(verify([forged, ...chainOf(3)], [], { anchor: GENESIS }).problem).toMatchObject({ kind: "INSERTED", sequence: 1, entryId: forged.id });
  });

  it("names an entry that comes again", () => {
    const chain = chainOf(10);
    expect(verify([...chain.slice(0, 5), chain[3]!, ...chain.slice(5)]).problem).toMatchObject({ kind: "REORDERED", sequence: 4, entryId: chain[3]!.id });
  });

  it("names a tail cut off before a checkpoint", () => {
    const chain = chainOf(10);
    const problem = verify(chain.slice(0, 6), [checkpointAt(chain[2]!, key), checkpointAt(chain[8]!, key)]).problem;
    expect(problem).toMatchObject({ kind: "TRUNCATED", sequence: 7 });
    expect(problem?.message).toContain("entries 7 to 9 were cut off");
  });

  it("names a chain whose every entry was cut off", () => {
    const chain = chainOf(3);
    expect(verify([], [checkpointAt(chain[2]!, key)], { anchor: GENESIS }).problem).toMatchObject({ kind: "TRUNCATED", sequence: 1 });
  });

  it("does not see a tail cut after the last checkpoint (nothing signed it yet)", () => {
    const chain = chainOf(10);
    const report = verify(chain.slice(0, 8), [checkpointAt(chain[5]!, key)]);
    expect(report).toMatchObject({ intact: true, lastSequence: 8 });
    expect(report.lastVerifiedCheckpoint?.sequence).toBe(6);
  });

  it("names the checkpoint a rewritten chain no longer matches", () => {
    const chain = chainOf(10);
    const checkpoint = checkpointAt(chain[7]!, key);
    const edited = [...chain];
    edited[2] = { ...edited[2]!, canonical: canonicalText({ ...fieldsOf(3), actorId: "rewritten" }) };
    const rewritten = reseal(edited, 2);
    expect(verify(rewritten, [checkpoint]).problem).toMatchObject({ kind: "CHECKPOINT_MISMATCH", sequence: 8, entryId: chain[7]!.id });
    // Without the checkpoint the rewrite is consistent: that is what checkpoints are for.
    expect(verify(rewritten).intact).toBe(true);
  });

  it("names a forged link that was resealed end to end at the next checkpoint", () => {
    const chain = chainOf(10);
    const checkpoint = checkpointAt(chain[9]!, key);
    const forged = { id: fieldsOf(99).id, sequence: 0, previousHash: "", hash: "", canonical: canonicalText(fieldsOf(99)) };
    const rewritten = reseal([...chain.slice(0, 4), forged, ...chain.slice(4)], 4);
    expect(verify(rewritten, [checkpoint]).problem).toMatchObject({ kind: "CHECKPOINT_MISMATCH", sequence: 10 });
  });

  it("names a checkpoint whose signature does not verify", () => {
    const chain = chainOf(10);
    const good = checkpointAt(chain[4]!, key);
    const bad = { ...good, signature: checkpointAt(chain[5]!, key).signature };
    expect(verify(chain, [bad]).problem).toMatchObject({ kind: "BAD_SIGNATURE", sequence: 5 });
    expect(verify(chain, [{ ...good, hash: chain[3]!.hash }]).problem).toMatchObject({ kind: "BAD_SIGNATURE", sequence: 5 });
    expect(verify(chain, [{ ...good, signedAt: new Date(good.signedAt.getTime() + 1) }]).problem).toMatchObject({ kind: "BAD_SIGNATURE", sequence: 5 });
    expect(verify(chain, [{ ...good, tenantId: "another-tenant" }]).problem).toMatchObject({ kind: "BAD_SIGNATURE", sequence: 5 });
  });

  it("names a checkpoint signed by a key that is not given, or by another key under its id", () => {
    const chain = chainOf(10);
    const stranger = signingKey("key-2026");
    const byStranger = verify(chain, [checkpointAt(chain[4]!, stranger)]).problem;
    expect(byStranger).toMatchObject({ kind: "BAD_SIGNATURE", sequence: 5 });
    const unknown = verify(chain, [checkpointAt(chain[4]!, signingKey("key-unknown"))]).problem;
    expect(unknown).toMatchObject({ kind: "BAD_SIGNATURE", sequence: 5 });
    expect(unknown?.message).toContain('"key-unknown"');
  });

  it("names a bad checkpoint beyond the end before the tail", () => {
    const chain = chainOf(10);
    const forged = { ...checkpointAt(chain[9]!, key), signature: "AAAA" };
    expect(verify(chain.slice(0, 6), [forged]).problem).toMatchObject({ kind: "BAD_SIGNATURE", sequence: 10 });
  });

  it("names only the first problem", () => {
    const chain = chainOf(10);
    chain[2] = { ...chain[2]!, hash: "00".repeat(32) };
    const report = verify([...chain.slice(0, 6), ...chain.slice(7)]);
    expect(report.problem).toMatchObject({ kind: "EDITED", sequence: 3 });
    expect(report.intact).toBe(false);
  });

  it("names a deleted entry right before an edited one as removed", () => {
    const chain = chainOf(10);
    const renumbered = [...chain.slice(0, 4), ...chain.slice(5).map((e) => ({ ...e, sequence: e.sequence! - 1 }))];
    renumbered[5] = { ...renumbered[5]!, hash: "00".repeat(32) };
    expect(verify(renumbered).problem).toMatchObject({ kind: "REMOVED", sequence: 5, entryId: chain[5]!.id });
  });

  it("checks a long chain in one pass", () => {
    const chain = chainOf(5_000);
    const report = verify(chain, [checkpointAt(at(chain, 4_999), key)]);
    expect(report).toMatchObject({ intact: true, entriesChecked: 5_000, checkpointsChecked: 1 });
  });
});
