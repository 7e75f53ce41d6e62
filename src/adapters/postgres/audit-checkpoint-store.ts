import type { MikroORM } from "@mikro-orm/postgresql";
import { v7 as uuidv7 } from "uuid";
import type { AuditCheckpointStore } from "../../app/audit/port.js";
import type { Checkpoint } from "../../domain/audit/chain/chain-link.js";
import { checkpointEntry } from "../../domain/audit/chain/checkpoint-entry.js";
import type { Cursor } from "../../domain/pagination.js";
import { OWN_ENTRY_NEXT, OWN_ENTRY_NEXT_PARAMS } from "./checkpoint-own-entry-sql.js";
import { withDatabase } from "./database-work.js";

/** Hashes and signatures are bytea: the driver hands them over as Buffers, converted here. */
const COLUMNS = "tenant_id, sequence, hash, signed_at, key_id, signature";

interface CheckpointRow {
  tenant_id: string;
  sequence: string;
  hash: Buffer;
  signed_at: Date;
  key_id: string;
  signature: Buffer;
}

function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    tenantId: row.tenant_id,
    sequence: Number(row.sequence),
    hash: row.hash.toString("hex"),
    signedAt: new Date(row.signed_at),
    keyId: row.key_id,
    signature: row.signature.toString("base64"),
  };
}

/** Signed checkpoints in PostgreSQL (audit_checkpoints, keyed by tenant and sequence). */
export class PostgresAuditCheckpointStore implements AuditCheckpointStore {
  constructor(private readonly orm: MikroORM) {}

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return withDatabase(this.orm, (em) => em.getConnection().execute<T[]>(sql, params));
  }

  private async checkpoints(where: string, params: unknown[]): Promise<Checkpoint[]> {
    return (await this.query<CheckpointRow>(`select ${COLUMNS} from audit_checkpoints where ${where}`, params)).map(toCheckpoint);
  }

  from(tenantId: string, fromSequence: number): Promise<Checkpoint[]> {
    return this.checkpoints("tenant_id = ? and sequence >= ? order by sequence", [tenantId, fromSequence]);
  }

  async latest(tenantId: string): Promise<Checkpoint | undefined> {
    return (await this.checkpoints("tenant_id = ? order by sequence desc limit 1", [tenantId]))[0];
  }

  /** The cursor's id is the sequence of the page's last checkpoint: sequences order them, uniquely. */
  page(tenantId: string, after: Cursor | undefined, limit: number): Promise<Checkpoint[]> {
    if (!after) return this.checkpoints("tenant_id = ? order by sequence desc limit ?", [tenantId, limit]);
    return this.checkpoints("tenant_id = ? and sequence < ? order by sequence desc limit ?", [tenantId, after.id, limit]);
  }

  /**
   * Stores the checkpoint and, only when this call inserted it, its own audit entry
   * (src/domain/audit/chain/checkpoint-entry.ts) in the same statement, so in one transaction:
   * the entry is sealed into the chain at its commit like every other, and a retried or
   * concurrent insert of the same (tenant, sequence) writes neither a second row nor a second
   * entry. Then a second statement, not part of the first: a concurrent signer's row that the
   * insert waited for is committed before the select starts, so the select (a snapshot of its
   * own) sees it.
   */
  async insert(checkpoint: Checkpoint): Promise<Checkpoint> {
    const entry = checkpointEntry(checkpoint);
    await this.query(
      `with inserted as (
         insert into audit_checkpoints (${COLUMNS}) values (?, ?, decode(?, 'hex'), ?, ?, decode(?, 'base64'))
         on conflict (tenant_id, sequence) do nothing
         returning tenant_id
       )
       insert into audit_entries (id, tenant_id, object_id, action, actor_id, result, correlation_id, details, occurred_at)
       select ?, tenant_id, ?, ?, ?, ?, ?, ?::jsonb, ? from inserted`,
      [
        checkpoint.tenantId,
        checkpoint.sequence,
        checkpoint.hash,
        checkpoint.signedAt,
        checkpoint.keyId,
        checkpoint.signature,
        uuidv7(),
        entry.objectId,
        entry.action,
        entry.actorId,
        entry.result,
        entry.correlationId,
        JSON.stringify(entry.details),
        entry.occurredAt,
      ],
    );
    const [stored] = await this.checkpoints("tenant_id = ? and sequence = ?", [checkpoint.tenantId, checkpoint.sequence]);
    if (!stored) throw new Error(`checkpoint ${checkpoint.tenantId}/${checkpoint.sequence} was neither inserted nor found`);
    return stored;
  }

  /**
   * Tenants whose head is past their newest checkpoint, not counting that checkpoint's own entry
   * right after it (OWN_ENTRY_NEXT): otherwise every run would sign again the entry the last
   * run wrote. The newest checkpoint of each head is one backward step of the primary key, the
   * own entry one probe of audit_chain_links' primary key.
   */
  async tenantsToCheckpoint(limit: number, afterTenantId?: string): Promise<string[]> {
    const rows = await this.query<{ tenant_id: string }>(
      `select t.tenant_id from audit_chain_tenants t
         cross join lateral (select max(l.sequence) as sequence from audit_chain_links l where l.tenant_id = t.tenant_id) h
         left join lateral (select c.sequence from audit_checkpoints c where c.tenant_id = t.tenant_id order by c.sequence desc limit 1) c on true
        where t.tenant_id > ?
          and h.sequence > coalesce(c.sequence, 0) + case when ${OWN_ENTRY_NEXT} then 1 else 0 end
        order by t.tenant_id limit ?`,
      [afterTenantId ?? "", ...OWN_ENTRY_NEXT_PARAMS, limit],
    );
    return rows.map((row) => row.tenant_id);
  }
}
