/**
 * Every path of the object workflow, driven through the JSON API of a given server, each with
 * the end it must reach: the object's final status (or gone) and its exact audit trail. Used by
 * the fault-injection test (every path must still end right when each step's workflow task
 * fails once) and by the replay test (their histories must replay against the workflow code).
 */
import { GetObjectLegalHoldCommand } from "@aws-sdk/client-s3";
import { EICAR } from "../../src/stack/clamd-signatures.js";
import { csv, exe, jpeg, latin1, png, svg } from "../fixtures/files/index.js";
import { putDirect, s3, sleep, sql, stackConfig } from "./stack-access.js";

export interface ApiResponse {
  status: number;
  body: any;
}

/** A minimal client of the JSON API of one server, for one tenant. */
export class FilesApi {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
    readonly tenant: string,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async initiate(spec: { objectClass: string; contentType: string; size: number; owner?: string }) {
    const res = await this.call("POST", "/uploads/initiate", {
      objectClass: spec.objectClass,
      ownerEntityType: "User",
      ownerEntityId: spec.owner ?? "owner-1",
      originalFilename: "file.bin",
      contentType: spec.contentType,
      fileSize: spec.size,
    });
    if (res.status !== 200) throw new Error(`initiate: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { storedObject: { id: string; storageKey: string }; uploadUrl: string; uploadHeaders: Record<string, string> };
  }

  async put(upload: { uploadUrl: string; uploadHeaders: Record<string, string> }, bytes: Uint8Array): Promise<void> {
    const headers = { ...upload.uploadHeaders };
    delete headers["content-length"];
    const res = await fetch(upload.uploadUrl, { method: "PUT", headers, body: Buffer.from(bytes) });
    if (res.status !== 200) throw new Error(`PUT: ${res.status} ${await res.text()}`);
  }

  complete(id: string, body: Record<string, unknown> = { waitForResult: true }) {
    return this.call("POST", `/uploads/${id}/complete`, body);
  }

  /** initiate, PUT, complete with waitForResult. */
  async upload(objectClass: string, contentType: string, bytes: Uint8Array, owner?: string) {
    const started = await this.initiate({ objectClass, contentType, size: bytes.length, owner });
    await this.put(started, bytes);
    const done = await this.complete(started.storedObject.id);
    if (done.status !== 200) throw new Error(`complete: ${done.status} ${JSON.stringify(done.body)}`);
    return done.body.storedObject as { id: string; status: string; storageKey: string };
  }
}

export type FinalStatus = "READY" | "REJECTED" | "PENDING_UPLOAD" | "GONE";

export interface ExpectedEnd {
  id: string;
  status: FinalStatus;
  /** The audit trail's actions in order; alternatives where a race decides legitimately. */
  audit: string[] | string[][];
}

export interface LifecyclePath {
  name: string;
  run(api: FilesApi): Promise<ExpectedEnd[]>;
}

const pngBytes = () => png(32, 32);
const I = "UPLOAD_INITIATED";
const C = "UPLOAD_COMPLETED";

export const LIFECYCLE_PATHS: LifecyclePath[] = [
  {
    name: "ready",
    async run(api) {
      const object = await api.upload("GENERAL_DOCUMENT", "image/png", pngBytes());
      return [{ id: object.id, status: "READY", audit: [I, C, "SCAN_PASSED"] }];
    },
  },
  {
    name: "rejected-then-expired",
    async run(api) {
      const object = await api.upload("GENERAL_DOCUMENT", "image/png", exe());
      return [{ id: object.id, status: "GONE", audit: [I, C, "SCAN_FAILED", "OBJECT_EXPIRED"] }];
    },
  },
  {
    name: "ready-streamed",
    async run(api) {
      const object = await api.upload("REPORT", "text/csv", csv([["a", "b"], ["1", "2"]]));
      return [{ id: object.id, status: "READY", audit: [I, C, "SCAN_PASSED"] }];
    },
  },
  {
    name: "rejected-streamed",
    async run(api) {
      const object = await api.upload("COMPANY_LOGO", "image/svg+xml", svg("<script>x()</script>"));
      return [{ id: object.id, status: "GONE", audit: [I, C, "SCAN_FAILED", "OBJECT_EXPIRED"] }];
    },
  },
  {
    // The malware engine refuses what the content checks pass, inside complete and in the scan.
    name: "malware-detected",
    async run(api) {
      const object = await api.upload("GENERAL_DOCUMENT", "image/jpeg", jpeg(16, 16, { segments: [{ marker: 0xfe, body: latin1(EICAR) }] }));
      return [{ id: object.id, status: "GONE", audit: [I, C, "SCAN_FAILED", "OBJECT_EXPIRED"] }];
    },
  },
  {
    name: "malware-detected-streamed",
    async run(api) {
      const object = await api.upload("REPORT", "text/csv", csv([["a", "b"], ["1", `see ${EICAR}`]]));
      return [{ id: object.id, status: "GONE", audit: [I, C, "SCAN_FAILED", "OBJECT_EXPIRED"] }];
    },
  },
  {
    name: "size-mismatch",
    async run(api) {
      const bytes = pngBytes();
      const started = await api.initiate({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", size: bytes.length + 10 });
      await putDirect(started.storedObject.storageKey, bytes);
      const refused = await api.complete(started.storedObject.id);
      expectReason(refused, 400, "SIZE_MISMATCH");
      return [{ id: started.storedObject.id, status: "GONE", audit: [I, "UPLOAD_FAILED"] }];
    },
  },
  {
    name: "checksum-mismatch",
    async run(api) {
      const bytes = pngBytes();
      const started = await api.initiate({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", size: bytes.length });
      await api.put(started, bytes);
      const refused = await api.complete(started.storedObject.id, { waitForResult: true, checksum: "0".repeat(32) });
      expectReason(refused, 400, "CHECKSUM_MISMATCH");
      return [{ id: started.storedObject.id, status: "GONE", audit: [I, "UPLOAD_FAILED"] }];
    },
  },
  {
    name: "checksum-mismatch-under-hold",
    async run(api) {
      const bytes = pngBytes();
      const started = await api.initiate({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", size: bytes.length });
      const id = started.storedObject.id;
      expectStatus(await api.call("POST", `/uploads/${id}/legal-hold`, { reason: "litigation" }), 200);
      await api.put(started, bytes);
      expectReason(await api.complete(id, { waitForResult: true, checksum: "0".repeat(32) }), 400, "CHECKSUM_MISMATCH");
      return [{ id, status: "PENDING_UPLOAD", audit: [I, "HOLD_PLACED", "UPLOAD_FAILED"] }];
    },
  },
  {
    name: "abandoned",
    async run(api) {
      const started = await api.initiate({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", size: 100 });
      return [{ id: started.storedObject.id, status: "GONE", audit: [I, "OBJECT_EXPIRED"] }];
    },
  },
  {
    name: "hold-and-release",
    async run(api) {
      const object = await api.upload("GENERAL_DOCUMENT", "image/png", exe());
      expectStatus(await api.call("POST", `/uploads/${object.id}/legal-hold`, { reason: "audit" }), 200);
      // Past the rejected file's deadline: the hold keeps it.
      await sleep(6000);
      expectStatus(await api.call("GET", `/uploads/${object.id}`), 200);
      expectStatus(await api.call("DELETE", `/uploads/${object.id}/legal-hold`), 200);
      return [{ id: object.id, status: "GONE", audit: [I, C, "SCAN_FAILED", "HOLD_PLACED", "HOLD_RELEASED", "OBJECT_EXPIRED"] }];
    },
  },
  {
    name: "hold-before-upload-reaches-the-bucket",
    async run(api) {
      const bytes = pngBytes();
      const started = await api.initiate({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", size: bytes.length });
      const id = started.storedObject.id;
      expectStatus(await api.call("POST", `/uploads/${id}/legal-hold`, { reason: "early" }), 200);
      await api.put(started, bytes);
      expectStatus(await api.complete(id), 200);
      if (stackConfig().storage.objectLock) {
        const { client, bucket } = s3();
        try {
          const hold = await client.send(new GetObjectLegalHoldCommand({ Bucket: bucket, Key: started.storedObject.storageKey }));
          if (hold.LegalHold?.Status !== "ON") throw new Error(`bucket object of ${id} has no legal hold`);
        } finally {
          client.destroy();
        }
        // Released so the suite's cleanup can remove it.
      }
      expectStatus(await api.call("DELETE", `/uploads/${id}/legal-hold`), 200);
      return [{ id, status: "READY", audit: [I, "HOLD_PLACED", C, "SCAN_PASSED", "HOLD_RELEASED"] }];
    },
  },
  {
    name: "superseded-then-expired",
    async run(api) {
      const owner = `owner-${Math.random().toString(36).slice(2, 8)}`;
      const first = await api.upload("USER_PROFILE_PHOTO", "image/png", pngBytes(), owner);
      const second = await api.upload("USER_PROFILE_PHOTO", "image/png", pngBytes(), owner);
      return [
        { id: first.id, status: "GONE", audit: [I, C, "SCAN_PASSED", "OBJECT_SUPERSEDED", "OBJECT_EXPIRED"] },
        { id: second.id, status: "READY", audit: [I, C, "SCAN_PASSED"] },
      ];
    },
  },
  {
    name: "restored",
    async run(api) {
      const owner = `owner-${Math.random().toString(36).slice(2, 8)}`;
      const first = await api.upload("USER_PROFILE_PHOTO", "image/png", pngBytes(), owner);
      // Held, so its short superseded deadline cannot pass before the restore, however slow.
      expectStatus(await api.call("POST", `/uploads/${first.id}/legal-hold`, { reason: "keep" }), 200);
      const second = await api.upload("USER_PROFILE_PHOTO", "image/png", pngBytes(), owner);
      expectStatus(await api.call("POST", `/uploads/${first.id}/restore`, {}), 200);
      expectStatus(await api.call("DELETE", `/uploads/${first.id}/legal-hold`), 200);
      return [
        { id: first.id, status: "READY", audit: [I, C, "SCAN_PASSED", "HOLD_PLACED", "OBJECT_SUPERSEDED", "OBJECT_RESTORED", "HOLD_RELEASED"] },
        { id: second.id, status: "GONE", audit: [I, C, "SCAN_PASSED", "OBJECT_SUPERSEDED", "OBJECT_EXPIRED"] },
      ];
    },
  },
  {
    name: "deleted-while-scanning",
    async run(api) {
      const rows = Array.from({ length: 200_000 }, (_, i) => [`row${i}`, String(i), "some text to scan"]);
      const bytes = csv([["name", "n", "note"], ...rows]);
      const started = await api.initiate({ objectClass: "REPORT", contentType: "text/csv", size: bytes.length });
      const id = started.storedObject.id;
      await api.put(started, bytes);
      expectStatus(await api.complete(id, { waitForResult: false }), 200);
      expectStatus(await api.call("DELETE", `/uploads/${id}`), 200);
      return [{ id, status: "GONE", audit: [[I, C, "OBJECT_DELETED"], [I, C, "SCAN_PASSED", "OBJECT_DELETED"]] }];
    },
  },
  {
    name: "upper-case-id",
    async run(api) {
      const bytes = pngBytes();
      const started = await api.initiate({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", size: bytes.length });
      await api.put(started, bytes);
      const done = await api.complete(started.storedObject.id.toUpperCase());
      expectStatus(done, 200);
      if (done.body.storedObject.status !== "READY") throw new Error(`upper-case complete: ${JSON.stringify(done.body)}`);
      return [{ id: started.storedObject.id, status: "READY", audit: [I, C, "SCAN_PASSED"] }];
    },
  },
];

function expectStatus(res: ApiResponse, status: number): void {
  if (res.status !== status) throw new Error(`expected HTTP ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
}

function expectReason(res: ApiResponse, status: number, reason: string): void {
  expectStatus(res, status);
  const text = JSON.stringify(res.body);
  if (!text.includes(reason)) throw new Error(`expected ${reason}: ${text}`);
}

/** The object's status as persisted ("GONE" once soft-deleted) and its audit actions in order. */
export async function persistedEnd(tenant: string, id: string): Promise<{ status: FinalStatus; audit: string[] }> {
  const rows = await sql<{ status: FinalStatus; deleted_at: Date | null }>("select status, deleted_at from stored_objects where tenant_id = ? and id = ?", [tenant, id]);
  const audit = await sql<{ action: string }>("select action from audit_entries where tenant_id = ? and object_id = ? order by occurred_at, id", [tenant, id]);
  const row = rows[0];
  return { status: !row || row.deleted_at ? "GONE" : row.status, audit: audit.map((a) => a.action) };
}

function matches(expected: ExpectedEnd, actual: { status: FinalStatus; audit: string[] }): boolean {
  const options = Array.isArray(expected.audit[0]) ? (expected.audit as string[][]) : [expected.audit as string[]];
  return actual.status === expected.status && options.some((o) => JSON.stringify(o) === JSON.stringify(actual.audit));
}

/** Waits until every object reached its expected end; answers the ones that did not, as they are. */
export async function awaitEnds(tenant: string, ends: ExpectedEnd[], timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const wrong: string[] = [];
    for (const end of ends) {
      const actual = await persistedEnd(tenant, end.id);
      if (!matches(end, actual)) wrong.push(`${end.id}: expected ${end.status} ${JSON.stringify(end.audit)}, is ${actual.status} ${JSON.stringify(actual.audit)}`);
    }
    if (wrong.length === 0 || Date.now() > deadline) return wrong;
    await sleep(500);
  }
}
