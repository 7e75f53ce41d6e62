/** The chain ports in memory, over synthetic chains (../chain-fixtures.ts): for the checkpoint use cases. */
import type { AuditChainReader, AuditCheckpointStore, ChainHead } from "../../../../src/app/audit/chain-port.js";
import type { ChainedEntry, Checkpoint } from "../../../../src/domain/audit/chain/chain-link.js";
import type { Cursor } from "../../../../src/domain/pagination.js";

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

  async insert(checkpoint: Checkpoint): Promise<Checkpoint> {
    const existing = this.stored.find((c) => c.tenantId === checkpoint.tenantId && c.sequence === checkpoint.sequence);
    if (existing) return existing;
    this.stored.push(checkpoint);
    return checkpoint;
  }

  async tenantsToCheckpoint(limit: number, afterTenantId = ""): Promise<string[]> {
    const tenants = [...this.chain.entries.keys()].filter((t) => t > afterTenantId).sort();
    const pending: string[] = [];
    for (const tenantId of tenants) {
      const head = await this.chain.head(tenantId);
      if (head && head.sequence > ((await this.latest(tenantId))?.sequence ?? 0)) pending.push(tenantId);
    }
    return pending.slice(0, limit);
  }
}
