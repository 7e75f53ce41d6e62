import type { MikroORM } from "@mikro-orm/postgresql";
import type { AuditChainReader, ChainHead } from "../../app/audit/port.js";
import type { ChainedEntry } from "../../domain/audit/chain/chain-link.js";
import { chainedInOrder, unsealedInOrder } from "./chained-entries-sql.js";
import { withDatabase } from "./database-work.js";

/** The canonical text as the seal trigger hashed it, recomputed from the row as stored now. */
const CANONICAL = `audit_entry_canonical(tenant_id, id, object_id, action, actor_id, request_id, correlation_id, result, occurred_at,
  object_class, owner_type, owner_id, details)`;

const LINK_COLUMNS = `id, chain_sequence, encode(chain_previous_hash, 'hex') as previous_hash, encode(chain_hash, 'hex') as hash, ${CANONICAL} as canonical`;

interface LinkRow {
  id: string;
  chain_sequence: string | null;
  previous_hash: string | null;
  hash: string | null;
  canonical: string;
}

function toChainedEntry(row: LinkRow): ChainedEntry {
  return {
    id: row.id,
    sequence: row.chain_sequence === null ? null : Number(row.chain_sequence),
    previousHash: row.previous_hash ?? "",
    hash: row.hash ?? "",
    canonical: row.canonical,
  };
}

/** The chain in PostgreSQL: range scans of audit_chain_links' primary key, each link joined to its entry. */
export class AuditChainReaderStore implements AuditChainReader {
  constructor(private readonly orm: MikroORM) {}

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return withDatabase(this.orm, (em) => em.getConnection().execute<T[]>(sql, params));
  }

  async head(tenantId: string): Promise<ChainHead | undefined> {
    const [row] = await this.query<{ sequence: string; hash: string; anchored_through: string; anchored_at: Date | null }>(
      `select l.sequence, encode(l.hash, 'hex') as hash, t.anchored_through, t.anchored_at
         from audit_chain_tenants t
         cross join lateral (
           select sequence, hash from audit_chain_links where tenant_id = t.tenant_id order by sequence desc limit 1) l
        where t.tenant_id = ?`,
      [tenantId],
    );
    if (!row) return undefined;
    return {
      tenantId,
      sequence: Number(row.sequence),
      hash: row.hash,
      anchoredThrough: Number(row.anchored_through),
      anchoredAt: row.anchored_at ? new Date(row.anchored_at) : null,
    };
  }

  async links(tenantId: string, afterSequence: number, throughSequence: number, limit: number): Promise<ChainedEntry[]> {
    const rows = await this.query<LinkRow>(
      `select ${LINK_COLUMNS} from ${chainedInOrder("l.sequence > ? and l.sequence <= ?")} order by chain_sequence`,
      [tenantId, afterSequence, throughSequence, limit],
    );
    return rows.map(toChainedEntry);
  }

  async unsealed(tenantId: string, limit: number): Promise<ChainedEntry[]> {
    const rows = await this.query<LinkRow>(
      `select ${LINK_COLUMNS} from ${unsealedInOrder()} order by occurred_at, id`,
      [tenantId, limit],
    );
    return rows.map(toChainedEntry);
  }
}
