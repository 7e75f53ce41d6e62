/**
 * Signing the head of a tenant's chain: only once the entries since the newest checkpoint verify,
 * once per head however often it runs, and with keys that rotate without making older
 * checkpoints unverifiable. Real Ed25519 keys, read from configuration as the server reads them.
 */
import { generateKeyPairSync } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { checkpointSignatureProblem } from "../../../../src/app/audit/chain/checkpoint-signature.js";
import type { AuditSigningKeys } from "../../../../src/app/audit/port.js";
import type { CheckpointDeps } from "../../../../src/app/audit/checkpoints/checkpoint-deps.js";
import { signChainHead } from "../../../../src/app/audit/checkpoints/sign-chain-head.js";
import { signCheckpoint } from "../../../../src/app/audit/checkpoints/sign-checkpoint.js";
import { signPendingCheckpoints } from "../../../../src/app/audit/checkpoints/sign-pending-checkpoints.js";
import { auditKeySettings, parseAuditSigningKeys } from "../../../../src/config/audit.js";
import type { ChainProblem } from "../../../../src/domain/audit/chain/chain-link.js";
import { AppError } from "../../../../src/domain/errors.js";
import { canonicalText, chainOf, fieldsOf, reseal, TENANT } from "../chain-fixtures.js";
import { MemoryChain, MemoryCheckpoints } from "./memory-chain.js";

const NOW = new Date("2026-03-01T12:00:00.123Z");

function keyRing(current: string, retired: string[] = []): AuditSigningKeys {
  return parseAuditSigningKeys({ AUDIT_SIGNING_KEY: current, AUDIT_RETIRED_PUBLIC_KEYS: retired.join(",") }, false).signingKeys;
}

const newKey = (keyId: string) => auditKeySettings(keyId, generateKeyPairSync("ed25519").privateKey);

let chain: MemoryChain;
let checkpoints: MemoryCheckpoints;
let refusals: { tenantId: string; problem: ChainProblem }[];

function depsWith(keys: AuditSigningKeys, now = NOW): CheckpointDeps {
  return { chain, checkpoints, keys, now: () => now, brokenChain: (tenantId, problem) => refusals.push({ tenantId, problem }) };
}

/** Appends `count` entries to the tenant's chain, sealed after its current head. */
function append(count: number, tenantId = TENANT): void {
  const entries = chain.entries.get(tenantId) ?? [];
  const more = Array.from({ length: count }, (_, i) => ({ id: fieldsOf(entries.length + i + 1, tenantId).id, sequence: 0, previousHash: "", hash: "", canonical: canonicalText(fieldsOf(entries.length + i + 1, tenantId)) }));
  chain.entries.set(tenantId, reseal([...entries, ...more], entries.length));
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

beforeEach(() => {
  chain = new MemoryChain();
  checkpoints = new MemoryCheckpoints(chain);
  refusals = [];
});

describe("signing the head of a tenant's chain", () => {
  const key = newKey("key-1");

  it("signs the head's sequence and hash with the current key, at millisecond precision", async () => {
    chain.entries.set(TENANT, chainOf(12));
    const keys = keyRing(key.signingKey);
    const { checkpoint, created } = await signChainHead(depsWith(keys), TENANT);
    expect(created).toBe(true);
    expect(checkpoint).toMatchObject({ tenantId: TENANT, sequence: 12, hash: chain.entries.get(TENANT)![11]!.hash, keyId: "key-1", signedAt: NOW });
    expect(checkpointSignatureProblem(checkpoint!, keys.ring)).toBeUndefined();
    expect(checkpoints.stored).toEqual([checkpoint]);
  });

  it("answers the newest checkpoint, not created, while nothing but its own entry was written after it", async () => {
    chain.entries.set(TENANT, chainOf(3));
    const first = await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    expect((await chain.head(TENANT))?.sequence).toBe(4);
    const again = await signChainHead(depsWith(keyRing(key.signingKey), new Date(NOW.getTime() + 60_000)), TENANT);
    expect(again).toEqual({ checkpoint: first.checkpoint, created: false });
    expect(checkpoints.stored).toHaveLength(1);
    expect(chain.entries.get(TENANT)).toHaveLength(4);
  });

  it("signs the checkpoint's own entry together with the next entry written after it", async () => {
    chain.entries.set(TENANT, chainOf(3));
    await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    append(1);
    const { checkpoint, created } = await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    expect({ sequence: checkpoint?.sequence, created }).toEqual({ sequence: 5, created: true });
  });

  it("signs an entry right after the checkpoint that is not its own (another writer committed first)", async () => {
    chain.entries.set(TENANT, chainOf(3));
    // Stored without its own entry: as if another writer's entry had committed before it.
    checkpoints.stored.push(signCheckpoint(keyRing(key.signingKey).current, TENANT, 3, chain.entries.get(TENANT)![2]!.hash, NOW));
    append(1);
    const { checkpoint, created } = await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    expect({ sequence: checkpoint?.sequence, created }).toEqual({ sequence: 4, created: true });
  });

  it("refuses to sign over a checkpoint's own entry edited into another: the verification finds it", async () => {
    chain.entries.set(TENANT, chainOf(3));
    await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    const entries = chain.entries.get(TENANT)!;
    entries[3] = { ...entries[3]!, canonical: entries[3]!.canonical.replace("checkpoint:3", "checkpoint:2") };
    const error = await refusal(signChainHead(depsWith(keyRing(key.signingKey)), TENANT));
    expect(error.metadata).toEqual({ kind: "EDITED", sequence: "4", entryId: entries[3]!.id });
  });

  it("stores one checkpoint when two signers sign the same head at once: the second gets the first's back", async () => {
    chain.entries.set(TENANT, chainOf(5));
    const keys = keyRing(key.signingKey);
    const [a, b] = await Promise.all([signChainHead(depsWith(keys), TENANT), signChainHead(depsWith(keys, new Date(NOW.getTime() + 1)), TENANT)]);
    expect(a.checkpoint).toEqual(b.checkpoint);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(checkpoints.stored).toHaveLength(1);
  });

  it("signs nothing for a tenant without entries", async () => {
    expect(await signChainHead(depsWith(keyRing(key.signingKey)), "tenant-empty")).toEqual({ checkpoint: undefined, created: false });
  });

  it("verifies only from the newest checkpoint on, which pins where the range starts", async () => {
    chain.entries.set(TENANT, chainOf(4));
    await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    append(3);
    const { checkpoint, created } = await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    expect(created).toBe(true);
    // 5 is the first checkpoint's own entry, 6 to 8 the entries appended.
    expect(checkpoint?.sequence).toBe(8);
    expect(checkpoints.stored.map((c) => c.sequence)).toEqual([4, 8]);
  });
});

describe("a chain that does not verify is not signed", () => {
  const key = newKey("key-1");

  it("refuses an entry edited since the newest checkpoint, naming it, and tells who listens", async () => {
    chain.entries.set(TENANT, chainOf(4));
    await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    append(4);
    const entries = chain.entries.get(TENANT)!;
    entries[5] = { ...entries[5]!, canonical: entries[5]!.canonical.replace("SUCCESS", "FAILURE") };
    const error = await refusal(signChainHead(depsWith(keyRing(key.signingKey)), TENANT));
    expect(error.reason).toBe("AUDIT_CHAIN_BROKEN");
    expect(error.metadata).toEqual({ kind: "EDITED", sequence: "6", entryId: entries[5]!.id });
    expect(error.message).toContain(`entry ${entries[5]!.id} at sequence 6 was edited`);
    expect(refusals).toEqual([{ tenantId: TENANT, problem: expect.objectContaining({ kind: "EDITED", sequence: 6 }) }]);
    expect(checkpoints.stored.map((c) => c.sequence)).toEqual([4]);
  });

  it("refuses a chain rewritten under its newest checkpoint", async () => {
    chain.entries.set(TENANT, chainOf(4));
    await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    append(2);
    const entries = chain.entries.get(TENANT)!;
    // Entry 2 edited and everything after it resealed: each link holds, the checkpoint at 4 does not.
    entries[1] = { ...entries[1]!, canonical: entries[1]!.canonical.replace("SUCCESS", "FAILURE") };
    chain.entries.set(TENANT, reseal(entries, 1));
    expect((await refusal(signChainHead(depsWith(keyRing(key.signingKey)), TENANT))).metadata.kind).toBe("CHECKPOINT_MISMATCH");
  });

  it("refuses a head past the last entry: the tail was cut off", async () => {
    chain.entries.set(TENANT, chainOf(6));
    chain.entries.set(TENANT, chain.entries.get(TENANT)!.slice(0, 4));
    chain.heads.set(TENANT, { sequence: 6, hash: "ab".repeat(32) });
    const error = await refusal(signChainHead(depsWith(keyRing(key.signingKey)), TENANT));
    expect(error.metadata).toMatchObject({ kind: "TRUNCATED", sequence: "5" });
    expect(checkpoints.stored).toEqual([]);
  });

  it("signs the hash the verification recomputed, not the head as read before", async () => {
    chain.entries.set(TENANT, chainOf(3));
    chain.heads.set(TENANT, { sequence: 3, hash: "ab".repeat(32) });
    const { checkpoint } = await signChainHead(depsWith(keyRing(key.signingKey)), TENANT);
    expect(checkpoint?.hash).toBe(chain.entries.get(TENANT)![2]!.hash);
  });
});

describe("key rotation", () => {
  it("keeps checkpoints of a retired key verifiable through the ring, and signs new ones with the new key", async () => {
    const old = newKey("key-2025");
    const next = newKey("key-2026");
    chain.entries.set(TENANT, chainOf(5));
    const before = (await signChainHead(depsWith(keyRing(old.signingKey)), TENANT)).checkpoint!;

    append(5);
    const rotated = keyRing(next.signingKey, [old.retiredPublicKey]);
    // Signing verifies from the old checkpoint on: its signature is checked with the retired key.
    const after = (await signChainHead(depsWith(rotated), TENANT)).checkpoint!;
    expect([before.keyId, after.keyId]).toEqual(["key-2025", "key-2026"]);
    expect(checkpointSignatureProblem(before, rotated.ring)).toBeUndefined();
    expect(checkpointSignatureProblem(after, rotated.ring)).toBeUndefined();
    expect(rotated.published.map((k) => [k.keyId, k.current])).toEqual([["key-2026", true], ["key-2025", false]]);
  });

  it("refuses to sign once the key of the newest checkpoint has left the ring: it could not be verified", async () => {
    const old = newKey("key-2025");
    chain.entries.set(TENANT, chainOf(2));
    await signChainHead(depsWith(keyRing(old.signingKey)), TENANT);
    append(1);
    const error = await refusal(signChainHead(depsWith(keyRing(newKey("key-2026").signingKey)), TENANT));
    expect(error.metadata).toMatchObject({ kind: "BAD_SIGNATURE", sequence: "2" });
  });
});

describe("signing every tenant that needs it", () => {
  it("signs each moved head in tenant order, refuses a broken chain without stopping the batch, and pages after the last", async () => {
    const keys = keyRing(newKey("key-1").signingKey);
    for (const tenant of ["t-a", "t-b", "t-c", "t-d"]) chain.entries.set(tenant, chainOf(3, tenant));
    const broken = chain.entries.get("t-b")!;
    broken[0] = { ...broken[0]!, canonical: broken[0]!.canonical.replace("SUCCESS", "FAILURE") };
    await signChainHead(depsWith(keys), "t-c");

    const first = await signPendingCheckpoints(depsWith(keys), 2);
    expect(first).toEqual({ signed: 1, refused: 1, scanned: 2, next: "t-b" });
    const second = await signPendingCheckpoints(depsWith(keys), 2, first.next);
    expect(second).toEqual({ signed: 1, refused: 0, scanned: 1, next: "t-d" });
    expect(checkpoints.stored.map((c) => c.tenantId).sort()).toEqual(["t-a", "t-c", "t-d"]);
    expect(refusals.map((r) => r.tenantId)).toEqual(["t-b"]);
  });

  it("a run after a run lists no tenant whose head moved only by its checkpoint's own entry", async () => {
    const keys = keyRing(newKey("key-1").signingKey);
    for (const tenant of ["t-a", "t-b"]) chain.entries.set(tenant, chainOf(3, tenant));
    expect(await signPendingCheckpoints(depsWith(keys), 10)).toMatchObject({ signed: 2, scanned: 2 });
    expect(await signPendingCheckpoints(depsWith(keys), 10)).toMatchObject({ signed: 0, scanned: 0 });
    append(1, "t-b");
    expect(await signPendingCheckpoints(depsWith(keys), 10)).toEqual({ signed: 1, refused: 0, scanned: 1, next: "t-b" });
  });
});
