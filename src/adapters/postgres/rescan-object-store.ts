import type { MikroORM } from "@mikro-orm/postgresql";
import type { QuarantineRetention, RescanCandidate, RescanObjects } from "../../app/files/rescan/port.js";
import type { Actor } from "../../domain/actor.js";
import type { MalwareScanRecord } from "../../domain/files/malware/malware-check.js";
import type { SeenDatabase } from "../../domain/files/malware/rescan-decision.js";
import type { RescanCursor, RescanWindow } from "../../domain/files/malware/rescan-window.js";
import type { ObjectRecord } from "../../domain/files/stored-object.js";
import { writeAudit } from "./audit-store.js";
import { inTransaction, withDatabase } from "./database-work.js";
import { StoredObjectRow } from "./entities/stored-object.js";
import { live } from "./row-conditions.js";
import { findObjectRecord } from "./stored-object-reads.js";

interface SeenDatabaseRow {
  database_version: string | number;
  first_seen_at: Date;
  rescan_started_at: Date | null;
}

/** The re-scan's rows in PostgreSQL: the database versions seen, READY objects across tenants. */
export class RescanObjectStore implements RescanObjects {
  constructor(private readonly orm: MikroORM) {}

  recordDatabase(engine: string, databaseVersion: number, now: Date): Promise<SeenDatabase[]> {
    return withDatabase(this.orm, async (em) => {
      const connection = em.getConnection();
      await connection.execute(
        "insert into malware_databases (engine, database_version, first_seen_at) values (?, ?, ?) on conflict do nothing",
        [engine, databaseVersion, now],
      );
      const rows = await connection.execute<SeenDatabaseRow[]>(
        "select database_version, first_seen_at, rescan_started_at from malware_databases where engine = ?",
        [engine],
      );
      return rows.map((row) => ({ databaseVersion: Number(row.database_version), firstSeenAt: new Date(row.first_seen_at), rescanStartedAt: row.rescan_started_at ? new Date(row.rescan_started_at) : null }));
    });
  }

  async markRescanStarted(engine: string, databaseVersion: number, now: Date): Promise<void> {
    await withDatabase(this.orm, (em) =>
      em.getConnection().execute(
        "update malware_databases set rescan_started_at = ? where engine = ? and database_version = ? and rescan_started_at is null",
        [now, engine, databaseVersion],
      ),
    );
  }

  /**
   * Newest first: a new signature most likely matches what arrived lately. Plain SQL because
   * ready_at has microseconds (clock_timestamp() under the owner lock) that a JavaScript Date
   * would drop from the cursor, skipping rows between the truncated and the real time.
   */
  readyPage(window: RescanWindow, after: RescanCursor | undefined, limit: number): Promise<RescanCandidate[]> {
    return withDatabase(this.orm, (em) =>
      em.getConnection().execute<RescanCandidate[]>(
        `select tenant_id as "tenantId", id, to_char(ready_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "readyAt"
           from stored_objects
          where status = 'READY' and deleted_at is null and ready_at >= ? and ready_at <= ?
            ${after ? "and (ready_at, id) < (?::timestamptz, ?::uuid)" : ""}
          order by ready_at desc, id desc
          limit ?`,
        [new Date(window.readySince), new Date(window.readyUntil), ...(after ? [after.readyAt, after.id] : []), limit],
      ),
    );
  }

  findRecord(tenantId: string, id: string): Promise<ObjectRecord | undefined> {
    return findObjectRecord(this.orm, tenantId, id);
  }

  quarantine(actor: Actor, id: string, malware: MalwareScanRecord, retention: QuarantineRetention, now: Date): Promise<boolean> {
    return inTransaction(this.orm, async (em) => {
      // A held object is quarantined too: the hold keeps its bytes, the deadline waits for the release.
      const changed = await em.nativeUpdate(
        StoredObjectRow,
        { ...live(actor.tenantId, id), status: "READY" },
        { status: "QUARANTINED", isCurrent: false, retentionPolicy: retention.retentionPolicy, retentionExpiresAt: retention.retentionExpiresAt, updatedAt: now },
      );
      if (changed === 0) return false;
      await writeAudit(em, { objectId: id, action: "OBJECT_QUARANTINED", actor, result: "FAILURE", details: { malware }, at: now });
      return true;
    });
  }
}
