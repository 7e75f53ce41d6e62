import type { MikroORM } from "@mikro-orm/postgresql";
import type { AuditCheckpointStore } from "../../app/audit/chain-port.js";
import type { Checkpoint } from "../../domain/audit/chain/chain-link.js";
import type { Cursor } from "../../domain/pagination.js";
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
   * Two statements, not one: a concurrent signer's row that the insert waited for is committed
   * before the select starts, so the select (a snapshot of its own) sees it.
   */
  async insert(checkpoint: Checkpoint): Promise<Checkpoint> {
    await this.query(
      `insert into audit_checkpoints (${COLUMNS}) values (?, ?, decode(?, 'hex'), ?, ?, decode(?, 'base64'))
       on conflict (tenant_id, sequence) do nothing`,
      [checkpoint.tenantId, checkpoint.sequence, checkpoint.hash, checkpoint.signedAt, checkpoint.keyId, checkpoint.signature],
    );
    const [stored] = await this.checkpoints("tenant_id = ? and sequence = ?", [checkpoint.tenantId, checkpoint.sequence]);
    if (!stored) throw new Error(`checkpoint ${checkpoint.tenantId}/${checkpoint.sequence} was neither inserted nor found`);
    return stored;
  }

  /** The newest checkpoint of each head is one backward step of the primary key. */
  async tenantsToCheckpoint(limit: number, afterTenantId?: string): Promise<string[]> {
    const rows = await this.query<{ tenant_id: string }>(
      `select t.tenant_id from audit_chain_tenants t
        where t.tenant_id > ?
          and (select max(e.chain_sequence) from audit_entries e where e.tenant_id = t.tenant_id and e.chain_sequence is not null)
              > coalesce((select max(c.sequence) from audit_checkpoints c where c.tenant_id = t.tenant_id), 0)
        order by t.tenant_id limit ?`,
      [afterTenantId ?? "", limit],
    );
    return rows.map((row) => row.tenant_id);
  }
}
