/** In-memory fakes of the files ports, for the lifecycle use cases and the RPC tests; the real adapters have integration tests. */
import { correlationOf } from "../../../../src/domain/actor.js";
import { createHash } from "node:crypto";
import type { LifecyclePorts } from "../../../../src/app/files/lifecycle/deps.js";
import type { LifecycleObjects } from "../../../../src/app/files/lifecycle/port.js";
import type { AuditRecord, ListFilter, NewStoredObject, ObjectCatalog, UploadSession } from "../../../../src/app/files/port.js";
import type { StorageDeleteFailure, SweepObjects } from "../../../../src/app/files/sweep/port.js";
import { STORAGE_DELETE_REASONS, storageDeleteAbandoned, storageDeleteNotice } from "../../../../src/domain/files/storage-delete-failures.js";
import type { DownloadBinding, ObjectStorage, UploadBinding } from "../../../../src/app/files/port.js";
import type { Cursor } from "../../../../src/domain/pagination.js";
import type { ScanSettlement } from "../../../../src/domain/files/scan-settlement.js";
import type { VerifiedDigests } from "../../../../src/domain/files/upload-verification.js";
import { type ObjectRecord, type ScanResultView } from "../../../../src/domain/files/stored-object.js";

export const NOW = new Date("2026-03-01T12:00:00Z");

export function pendingRecord(overrides: Partial<ObjectRecord> = {}): ObjectRecord {
  return {
    id: "0190c3a2-0000-7000-8000-000000000001",
    tenantId: "t1",
    storageKey: "tenants/t1/User/u1/0190c3a2-0000-7000-8000-000000000001",
    status: "PENDING_UPLOAD",
    objectClass: "GENERAL_DOCUMENT",
    ownerEntityType: "User",
    ownerEntityId: "u1",
    originalFilename: "a.png",
    contentType: "image/png",
    fileSize: 0,
    isCurrent: false,
    retentionPolicy: "TEMP_UPLOAD_24H",
    retentionExpiresAt: new Date(NOW.getTime() + 86_400_000).toISOString(),
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    deleted: false,
    storageDeletePending: false,
    ...overrides,
  };
}

const unused = () => {
  throw new Error("not used by the lifecycle");
};

export class FakeObjects implements ObjectCatalog, LifecycleObjects, SweepObjects {
  readonly rows = new Map<string, ObjectRecord>();
  readonly auditLog: AuditRecord[] = [];

  put(record: ObjectRecord): void {
    this.rows.set(record.id, { ...record });
  }
  actions(id: string): string[] {
    return this.auditLog.filter((a) => a.objectId === id).map((a) => a.action);
  }
  private live(id: string): ObjectRecord | undefined {
    const row = this.rows.get(id);
    return row && !row.deleted ? row : undefined;
  }

  async findRecord(_t: string, id: string) {
    const row = this.rows.get(id);
    return row && { ...row };
  }
  async latestSession(_t: string, objectId: string) {
    return this.sessions.filter((s) => s.objectId === objectId).at(-1) ?? ({ presignExpiresAt: new Date(NOW.getTime() + 60_000) } as never);
  }
  async initiatorOf(_t: string, objectId: string) {
    return this.sessions.find((s) => s.objectId === objectId)?.initiatedBy;
  }
  async markCompleted(actor: AuditRecord["actor"], id: string, digests: VerifiedDigests, now: Date) {
    const row = this.live(id);
    if (row?.status !== "PENDING_UPLOAD") return false;
    Object.assign(row, { status: "SCANNING", checksum: digests.md5, contentSha256: digests.sha256, uploadedAt: now.toISOString() });
    this.auditLog.push({ objectId: id, action: "UPLOAD_COMPLETED", actor, details: { checksum: digests.md5, contentSha256: digests.sha256 }, at: now });
    return true;
  }
  async completeAndSettle(actor: AuditRecord["actor"], id: string, digests: VerifiedDigests, result: ScanResultView, settlement: ScanSettlement, now: Date) {
    if (!(await this.markCompleted(actor, id, digests, now))) return { changed: false, superseded: [] as string[] };
    return this.finishScan(actor, id, result, settlement, now);
  }
  async finishScan(actor: AuditRecord["actor"], id: string, result: ScanResultView, settlement: ScanSettlement, now: Date, md5?: string) {
    const row = this.live(id);
    if (row?.status !== "SCANNING") return { changed: false, superseded: [] as string[] };
    Object.assign(row, { status: settlement.status, retentionPolicy: settlement.retentionPolicy, scanResult: result, checksum: row.checksum ?? md5 });
    this.auditLog.push({ objectId: id, action: result.passed ? "SCAN_PASSED" : "SCAN_FAILED", actor, at: now });
    return { changed: true, superseded: [] as string[] };
  }
  async failUpload(actor: AuditRecord["actor"], id: string, reason: "SIZE_MISMATCH" | "CHECKSUM_MISMATCH", details: Record<string, unknown>, now: Date) {
    const row = this.live(id);
    if (row?.status !== "PENDING_UPLOAD" || row.legalHold) return false;
    Object.assign(row, { deleted: true, storageDeletePending: true, deleteReason: "CHECKSUM_MISMATCH", verificationFailure: reason });
    this.auditLog.push({ objectId: id, action: "UPLOAD_FAILED", actor, result: "FAILURE", details, at: now });
    return true;
  }
  async expire() {
    return false;
  }
  /** Failed storage deletes per row: runs counted once each, as the store does. */
  readonly deleteFailures = new Map<string, { runs: number; lastRun: string; abandoned: boolean }>();
  async recordStorageDeleteFailure(actor: AuditRecord["actor"], id: string, failure: StorageDeleteFailure) {
    const run = correlationOf(actor) ?? "";
    const seen = this.deleteFailures.get(id) ?? { runs: 0, lastRun: "", abandoned: false };
    if (!this.rows.get(id)?.storageDeletePending || seen.abandoned || seen.lastRun === run) return undefined;
    const runs = seen.runs + 1;
    const abandoned = storageDeleteAbandoned(runs, failure.maxFailedRuns);
    this.deleteFailures.set(id, { runs, lastRun: run, abandoned });
    const notice = storageDeleteNotice(runs, failure.maxFailedRuns);
    if (notice) {
      const action = this.rows.get(id)!.deleteReason === "EXPIRED" ? "OBJECT_EXPIRED" : "OBJECT_DELETED";
      const details = { reason: STORAGE_DELETE_REASONS[notice], message: failure.message, failedRuns: runs };
      this.auditLog.push({ objectId: id, action, actor, result: "FAILURE", details, at: failure.at });
    }
    return { failedRuns: runs, abandoned };
  }
  async markStorageDeleted(_t: string, id: string) {
    const row = this.rows.get(id);
    if (row) row.storageDeletePending = false;
  }
  async audit(record: AuditRecord) {
    this.auditLog.push(record);
  }
  async auditOnce(record: AuditRecord) {
    const correlation = correlationOf(record.actor);
    const result = (r: AuditRecord) => r.result ?? "SUCCESS";
    const seen = this.auditLog.some(
      (a) => a.objectId === record.objectId && a.action === record.action && result(a) === result(record) && correlationOf(a.actor) === correlation,
    );
    if (!seen || !correlation) this.auditLog.push(record);
  }

  // What the RPC tests (test/unit/rpc) need besides the lifecycle: every read scoped by tenant.
  readonly sessions: UploadSession[] = [];
  private owned(tenantId: string, id: string): ObjectRecord | undefined {
    const row = this.live(id);
    return row?.tenantId === tenantId ? row : undefined;
  }
  async findLive(tenantId: string, id: string) {
    const row = this.owned(tenantId, id);
    return row && { ...row };
  }
  async list(tenantId: string, filter: ListFilter, after: Cursor | undefined, limit: number) {
    const newestFirst = (a: ObjectRecord, b: ObjectRecord) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);
    const afterCursor = (r: ObjectRecord) => !after || r.createdAt < after.at.toISOString() || (r.createdAt === after.at.toISOString() && r.id < after.id);
    return [...this.rows.values()]
      .filter((r) => r.tenantId === tenantId && !r.deleted && afterCursor(r))
      .filter((r) => Object.entries(filter).every(([key, value]) => value === undefined || r[key as keyof ObjectRecord] === value))
      .sort(newestFirst)
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }
  async createInitiated(object: NewStoredObject, session: UploadSession, audit: AuditRecord) {
    const at = object.createdAt.toISOString();
    const { pendingDeadline, workflowId: _workflowId, ...fields } = object;
    const record: ObjectRecord = {
      ...fields,
      objectClass: object.objectClass as ObjectRecord["objectClass"],
      status: "PENDING_UPLOAD",
      isCurrent: false,
      retentionPolicy: "TEMP_UPLOAD_24H",
      retentionExpiresAt: pendingDeadline.toISOString(),
      createdAt: at,
      updatedAt: at,
      deleted: false,
      storageDeletePending: false,
    };
    this.put(record);
    this.sessions.push(session);
    this.auditLog.push(audit);
    return { ...record };
  }
  async addSession(session: UploadSession, audit: AuditRecord) {
    if (this.owned(session.tenantId, session.objectId)?.status !== "PENDING_UPLOAD") return false;
    this.sessions.push(session);
    this.auditLog.push(audit);
    return true;
  }
  async softDelete(actor: AuditRecord["actor"], id: string, now: Date) {
    const row = this.owned(actor.tenantId, id);
    if (!row) return "missing" as const;
    if (row.legalHold) return "held" as const;
    Object.assign(row, { deleted: true, deleteReason: "USER_DELETED", storageDeletePending: true });
    this.auditLog.push({ objectId: id, action: "OBJECT_DELETED", actor, at: now });
    return "deleted" as const;
  }
  async setHold(actor: AuditRecord["actor"], id: string, hold: { reason: string } | null, now: Date) {
    const row = this.owned(actor.tenantId, id);
    if (!row) return "missing" as const;
    if (Boolean(row.legalHold) === (hold !== null)) return "unchanged" as const;
    row.legalHold = hold ? { reason: hold.reason, placedBy: actor.actorId, placedAt: now.toISOString() } : undefined;
    this.auditLog.push({ objectId: id, action: hold ? "HOLD_PLACED" : "HOLD_RELEASED", actor, at: now });
    return "changed" as const;
  }
  restore = unused;
  overdue = unused;
  stuckScans = unused;
  pendingStorageDeletes = unused;
  liveStorageKeys = unused;
}

/** A read object arrives in chunks of this size, as from a socket. */
const OPENED_CHUNK_BYTES = 64 * 1024;

async function* inChunks(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

/** A bucket in memory that counts the requests it serves. */
export class FakeStorage implements ObjectStorage {
  readonly objects = new Map<string, Uint8Array>();
  readonly holds = new Set<string>();
  readonly requests: string[] = [];
  /** Keys whose opened read was ended before its end. */
  readonly cancelled: string[] = [];
  /** Keys stored by a multipart upload: their ETag is not the MD5 of the bytes. */
  readonly multipart = new Set<string>();

  async readPrefix(key: string, length: number) {
    this.requests.push("readPrefix");
    const bytes = this.objects.get(key);
    if (!bytes) return undefined;
    return { bytes: bytes.subarray(0, length), size: bytes.length, etag: this.etag(key, bytes) };
  }
  async open(key: string) {
    this.requests.push("open");
    const bytes = this.objects.get(key);
    if (!bytes) return undefined;
    return { size: bytes.length, etag: this.etag(key, bytes), body: inChunks(bytes, OPENED_CHUNK_BYTES), cancel: () => this.cancelled.push(key) };
  }
  private etag(key: string, bytes: Uint8Array) {
    const md5 = createHash("md5").update(bytes).digest("hex");
    return this.multipart.has(key) ? `${md5.slice(0, 31)}0-2` : md5;
  }
  async readRange(key: string, offset: number, length: number) {
    this.requests.push("readRange");
    return this.objects.get(key)!.subarray(offset, offset + length);
  }
  async *stream(key: string) {
    this.requests.push("stream");
    yield* inChunks(this.objects.get(key)!, OPENED_CHUNK_BYTES);
  }
  async delete(key: string) {
    this.requests.push("delete");
    this.objects.delete(key);
  }
  async setLegalHold(key: string, on: boolean) {
    if (on) this.holds.add(key);
    else this.holds.delete(key);
  }
  /** Signs nothing: the URL names what it allows, so a test can read the binding back. */
  async presignUpload(binding: UploadBinding, now: Date) {
    const headers: Record<string, string> = { "content-type": binding.contentType };
    if (binding.md5Hex) headers["content-md5"] = Buffer.from(binding.md5Hex, "hex").toString("base64");
    if (binding.sha256Hex) headers["x-amz-checksum-sha256"] = Buffer.from(binding.sha256Hex, "hex").toString("base64");
    const expiresAt = new Date(now.getTime() + binding.expiresInSeconds * 1000);
    return { url: `https://bucket.invalid/${binding.key}?put=${binding.contentLength}`, expiresAt, headers };
  }
  /** What each download URL was signed for (its file name among it). */
  readonly downloads: DownloadBinding[] = [];
  async presignDownload(binding: DownloadBinding, now: Date) {
    this.downloads.push(binding);
    return { url: `https://bucket.invalid/${binding.key}?${binding.disposition}`, expiresAt: new Date(now.getTime() + binding.expiresInSeconds * 1000) };
  }
  head = unused;
  list = unused;
  ping = unused;
  /** No multipart uploads in memory: the integration tests cover them against MinIO. */
  async findMultipart() {
    return undefined;
  }
  async abortMultipart() {
    return 0;
  }
  startMultipart = unused;
  presignPart = unused;
  listParts = unused;
  completeMultipart = unused;
  listStaleMultipart = unused;
  abortMultipartUpload = unused;
}

export function lifecyclePorts(objects: FakeObjects, storage: FakeStorage): LifecyclePorts {
  return {
    objects,
    storage,
    retention: { tempUploadSeconds: 60, failedUploadSeconds: 60, supersededSeconds: 60, importArtifactSeconds: 60 },
    inlineScanMaxBytes: 1024 * 1024,
    retentionChanged: async () => undefined,
    now: () => NOW,
  };
}
