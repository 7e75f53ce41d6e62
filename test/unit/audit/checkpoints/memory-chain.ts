/** The chain ports in memory, over synthetic chains (../chain-fixtures.ts): for the checkpoint use cases. */
import type { AuditChainReader, AuditCheckpointStore, ChainHead } from "../../../../src/app/audit/port.js";
import { parseCanonical } from "../../../../src/domain/audit/chain/canonical-entry.js";
import type { ChainedEntry, Checkpoint } from "../../../../src/domain/audit/chain/chain-link.js";
import { checkpointEntry, isOwnEntryOf, unsignedEntries } from "../../../../src/domain/audit/chain/checkpoint-entry.js";
import type { Cursor } from "../../../../src/domain/pagination.js";
import { canonicalText, reseal } from "../chain-fixtures.js";

export class MemoryChain implements AuditChainReader {
  readonly entries = new Map<string, ChainedEntry[]>();
  /** A head that disagrees with the entries (read before they changed), when a test sets one. */
  readonly heads = new Map<string, { sequence: number; hash: string }>();

  async head(tenantId: string): Promise<ChainHead | undefined> {
    const last = this.entries.get(tenantId)?.at(-1);
    const head = this.heads.get(tenantId) ?? (last && { sequence: last.sequence!, hash: last.hash });
    return head && { tenantId, ...head, anchoredThrough: 0, anchoredAt: null };
  }

  async links(tenantId: string, afterSequence: number, throughSequence: number, limit: number): Promise<ChainedEntry[]> {
    return (this.entries.get(tenantId) ?? [])
      .filter((e) => e.sequence !== null && e.sequence > afterSequence && e.sequence <= throughSequence)
      .sort((a, b) => a.sequence! - b.sequence!)
      .slice(0, limit);
  }

  async unsealed(tenantId: string, limit: number): Promise<ChainedEntry[]> {
    return (this.entries.get(tenantId) ?? []).filter((e) => e.sequence === null).slice(0, limit);
  }
}

export class MemoryCheckpoints implements AuditCheckpointStore {
  readonly stored: Checkpoint[] = [];

  constructor(private readonly chain: MemoryChain) {}

  private of(tenantId: string): Checkpoint[] {
    return this.stored.filter((c) => c.tenantId === tenantId).sort((a, b) => a.sequence - b.sequence);
  }

  async from(tenantId: string, fromSequence: number): Promise<Checkpoint[]> {
    return this.of(tenantId).filter((c) => c.sequence >= fromSequence);
  }

  async latest(tenantId: string): Promise<Checkpoint | undefined> {
    return this.of(tenantId).at(-1);
  }

  async page(tenantId: string, after: Cursor | undefined, limit: number): Promise<Checkpoint[]> {
    return this.of(tenantId).reverse().filter((c) => !after || c.sequence < Number(after.id)).slice(0, limit);
  }

  /** As PostgreSQL does: a checkpoint inserted now gets its own entry, sealed at the end of the chain. */
  async insert(checkpoint: Checkpoint): Promise<Checkpoint> {
    const existing = this.stored.find((c) => c.tenantId === checkpoint.tenantId && c.sequence === checkpoint.sequence);
    if (existing) return existing;
    this.stored.push(checkpoint);
    this.appendOwnEntry(checkpoint);
    return checkpoint;
  }

  private appendOwnEntry(checkpoint: Checkpoint): void {
    const entries = this.chain.entries.get(checkpoint.tenantId) ?? [];
    const { tenantId, objectId, action, actorId, result, correlationId, details, occurredAt } = checkpointEntry(checkpoint);
    const id = `cccccccc-0000-7000-8000-${String(checkpoint.sequence).padStart(12, "0")}`;
    const canonical = canonicalText({
      tenantId, id, objectId, action, actorId, requestId: null, correlationId, result,
      occurredAt: occurredAt.toISOString().replace("Z", "000Z"), objectClass: null, ownerType: null, ownerId: null, details,
    });
    this.chain.entries.set(tenantId, reseal([...entries, { id, sequence: 0, previousHash: "", hash: "", canonical }], entries.length));
  }

  async tenantsToCheckpoint(limit: number, afterTenantId = ""): Promise<string[]> {
    const tenants = [...this.chain.entries.keys()].filter((t) => t > afterTenantId).sort();
    const pending: string[] = [];
    for (const tenantId of tenants) {
      const head = await this.chain.head(tenantId);
      const latest = await this.latest(tenantId);
      const [next] = latest ? await this.chain.links(tenantId, latest.sequence, latest.sequence + 1, 1) : [];
      const fields = next && parseCanonical(next.canonical);
      const checkpoint = latest && { sequence: latest.sequence, ownEntryNext: fields !== undefined && isOwnEntryOf(fields, latest.sequence) };
      if (head && unsignedEntries(head.sequence, checkpoint) > 0) pending.push(tenantId);
    }
    return pending.slice(0, limit);
  }
}
