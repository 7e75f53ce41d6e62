import type { Actor } from "../../../domain/actor.js";
import type { MalwareScanRecord } from "../../../domain/files/malware/malware-check.js";
import type { SeenDatabase } from "../../../domain/files/malware/rescan-decision.js";
import type { RescanCursor, RescanWindow } from "../../../domain/files/malware/rescan-window.js";
import type { RetentionPolicyName } from "../../../domain/files/object-classes.js";
import type { ObjectRecord } from "../../../domain/files/stored-object.js";

/** A READY object a re-scan reads, with its place in the re-scan's order. */
export interface RescanCandidate extends RescanCursor {
  tenantId: string;
}

/** Where a quarantined object's bytes go: the failed-upload retention of a REJECTED file. */
export interface QuarantineRetention {
  retentionPolicy: RetentionPolicyName;
  retentionExpiresAt: Date | null;
}

/** The rows the re-scan reads and writes (table malware_databases, stored_objects, the audit trail). */
export interface RescanObjects {
  /** Records `databaseVersion` as seen (once) and answers every version recorded for the engine. */
  recordDatabase(engine: string, databaseVersion: number, now: Date): Promise<SeenDatabase[]>;
  /** The re-scan of this version has a workflow: no worker starts it again. */
  markRescanStarted(engine: string, databaseVersion: number, now: Date): Promise<void>;
  /** Live READY objects in the window, across tenants, newest first: after `after` in (ready time, id) descending. */
  readyPage(window: RescanWindow, after: RescanCursor | undefined, limit: number): Promise<RescanCandidate[]>;
  findRecord(tenantId: string, id: string): Promise<ObjectRecord | undefined>;
  /**
   * READY → QUARANTINED with its audit entry (OBJECT_QUARANTINED, `details.malware`) in one
   * transaction; false when the object was no longer READY and live (a retry, a delete).
   */
  quarantine(actor: Actor, id: string, malware: MalwareScanRecord, retention: QuarantineRetention, now: Date): Promise<boolean>;
}

/** What a started re-scan needs to know; the workflow's input. */
export interface RescanStart {
  engine: string;
  databaseVersion: number;
  window: RescanWindow;
}

/** Starts the re-scan workflow of a database version (Temporal in src/adapters/temporal). */
export interface MalwareRescans {
  /** "already-started" when its workflow exists (another worker, an earlier run of this one). */
  start(start: RescanStart): Promise<"started" | "already-started">;
}
