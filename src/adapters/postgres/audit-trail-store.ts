import type { MikroORM } from "@mikro-orm/postgresql";
import type { AuditEntryView, AuditTrail, UploadSessionView } from "../../app/audit/port.js";
import type { AuditQuery } from "../../domain/audit/audit-query.js";
import type { Cursor } from "../../domain/pagination.js";
import { AUDIT_COLUMNS, auditSearchSql } from "./audit-search-sql.js";
import { chainedInOrder, unsealedInOrder } from "./chained-entries-sql.js";
import { withDatabase } from "./database-work.js";

interface AuditEntryRecord {
  id: string;
  object_id: string;
  action: string;
  actor_id: string;
  request_id: string | null;
  correlation_id: string;
  result: string;
  details: Record<string, unknown> | null;
  occurred_at: Date;
  object_class: string | null;
  owner_type: string | null;
  owner_id: string | null;
  chain_sequence: string | null;
  chain_previous_hash: string | null;
  chain_hash: string | null;
  chain_canonical: string | null;
}

function toAuditEntryView(row: AuditEntryRecord): AuditEntryView {
  return {
    id: row.id,
    objectId: row.object_id,
    action: row.action,
    actorId: row.actor_id,
    requestId: row.request_id,
    correlationId: row.correlation_id,
    result: row.result,
    details: row.details,
    occurredAt: new Date(row.occurred_at),
    objectClass: row.object_class,
    ownerType: row.owner_type,
    ownerId: row.owner_id,
    chain:
      row.chain_sequence === null
        ? null
        : { sequence: Number(row.chain_sequence), previousHash: row.chain_previous_hash!, hash: row.chain_hash!, canonical: row.chain_canonical! },
  };
}

/** The audit trail in PostgreSQL: plain reads over audit_entries and upload_sessions. */
export class AuditTrailStore implements AuditTrail {
  constructor(private readonly orm: MikroORM) {}

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return withDatabase(this.orm, (em) => em.getConnection().execute<T[]>(sql, params));
  }

  async search(tenantId: string, query: AuditQuery): Promise<AuditEntryView[]> {
    const { sql, params } = auditSearchSql(tenantId, query);
    return (await this.query<AuditEntryRecord>(sql, params)).map(toAuditEntryView);
  }

  async chainPage(tenantId: string, afterSequence: number, limit: number): Promise<AuditEntryView[]> {
    const rows = await this.query<AuditEntryRecord>(
      `select ${AUDIT_COLUMNS} from ${chainedInOrder("l.sequence > ?")} order by chain_sequence`,
      [tenantId, afterSequence, limit],
    );
    return rows.map(toAuditEntryView);
  }

  async unsealedPage(tenantId: string, after: Cursor | undefined, limit: number): Promise<AuditEntryView[]> {
    const past = after ? "(e.occurred_at, e.id) > (?, ?)" : undefined;
    const rows = await this.query<AuditEntryRecord>(
      `select ${AUDIT_COLUMNS} from ${unsealedInOrder(past)} order by occurred_at, id`,
      after ? [tenantId, after.at, after.id, limit] : [tenantId, limit],
    );
    return rows.map(toAuditEntryView);
  }

  async objectExists(tenantId: string, objectId: string): Promise<boolean> {
    const rows = await this.query<{ found: number }>("select 1 as found from stored_objects where tenant_id = ? and id = ?", [tenantId, objectId]);
    return rows.length > 0;
  }

  async sessionsOf(tenantId: string, objectId: string): Promise<UploadSessionView[]> {
    const rows = await this.query<Record<string, unknown>>(
      `select id, initiated_by, presign_expires_at, expected_content_type, expected_file_size, content_md5, content_sha256,
              policy_snapshot, completed_at, created_at
         from upload_sessions where tenant_id = ? and object_id = ? order by created_at, id`,
      [tenantId, objectId],
    );
    return rows.map((row) => ({
      id: String(row.id),
      initiatedBy: String(row.initiated_by),
      presignExpiresAt: new Date(row.presign_expires_at as string),
      expectedContentType: String(row.expected_content_type),
      expectedFileSize: Number(row.expected_file_size),
      contentMd5: row.content_md5 as string | null,
      contentSha256: row.content_sha256 as string | null,
      policySnapshot: row.policy_snapshot as Record<string, unknown>,
      completedAt: row.completed_at ? new Date(row.completed_at as string) : null,
      createdAt: new Date(row.created_at as string),
    }));
  }

  async countByTenant(): Promise<Map<string, number>> {
    const rows = await this.query<{ tenant_id: string; entries: string }>(
      "select tenant_id, count(*) as entries from audit_entries group by tenant_id",
      [],
    );
    return new Map(rows.map((row) => [row.tenant_id, Number(row.entries)]));
  }
}
