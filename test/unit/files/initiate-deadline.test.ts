/**
 * A call's deadline reaches the I/O of the writes that take its scope (initiate, entity create and
 * update): a dependency still working when it passes is cut off through the signal, and whatever
 * it then throws answers DEADLINE_EXCEEDED, with nothing stored and initiate's compensation run.
 * The fakes wait on the signal as the S3 client, Temporal's client and a statement bounded by
 * statement_timeout do; the real dependencies are in test/integration/deadlines.test.ts.
 */
import { describe, expect, it } from "vitest";
import { Code, ConnectError, createHandlerContext } from "@connectrpc/connect";
import { v7 as uuidv7 } from "uuid";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { parseConfig } from "../../../src/config/config.js";
import type { ObjectCatalog, ObjectLifecycle, ObjectStorage } from "../../../src/app/files/port.js";
import { initiateUpload, type InitiateInput } from "../../../src/app/files/initiate-upload.js";
import { createEntity, updateEntity, type EntityKind } from "../../../src/app/entities/entity-custom-fields.js";
import type { CustomFieldEntityCatalog, EntityCustomFields } from "../../../src/app/entities/port.js";
import { statementTimeoutWithin } from "../../../src/adapters/postgres/database-work.js";
import { mapDeadline, withinDeadline, type CallScope } from "../../../src/domain/call-scope.js";
import { AppError } from "../../../src/domain/errors.js";
import { callScopeOf } from "../../../src/rpc/call-scope.js";
import { SAFE_MODE_ENV } from "../../support/config-env.js";
import { fakeFileStorage, MemoryEntityStore } from "../rpc/fakes.js";

const config = parseConfig(SAFE_MODE_ENV);
const NOW = new Date("2026-03-01T12:00:00Z");
const actor = { tenantId: "t1", actorId: "u1" };

/** The scope of a call as the handler builds it, from Connect's own context (its deadline timer included). */
function scopeOf(init: { timeoutMs?: number; requestSignal?: AbortSignal } = {}) {
  const ctx = createHandlerContext({
    service: FileStorageService,
    method: FileStorageService.method.initiateUpload,
    protocolName: "grpc",
    requestMethod: "POST",
    url: "http://localhost/filestorage.v1.FileStorageService/InitiateUpload",
    ...init,
  });
  return { ctx, call: callScopeOf(ctx) };
}

/** The deadline passing now, as Connect's timer aborts the context (deterministic, unlike a short timeout). */
const expire = (ctx: { abort(reason?: unknown): void }) => ctx.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded));

/** I/O that answers only when the signal aborts, then fails as a cancelled request does. */
function untilAborted(signal: AbortSignal | undefined, failure: () => unknown): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (!signal) return;
    signal.addEventListener("abort", () => reject(failure()), { once: true });
  });
}

const abortError = () => Object.assign(new Error("This operation was aborted"), { name: "AbortError" });
/** What the database adapter makes of a statement cancelled by the session's own bound: an unexpected error. */
const cancelledStatement = () => new AppError("INTERNAL", "database error", { cause: Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }) });

function reasonOf(error: unknown): string | undefined {
  return error instanceof AppError ? error.reason : undefined;
}

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => expect.unreachable("the call answered"),
    (error: unknown) => error,
  );
}

describe("CallScope from the handler's context", () => {
  it("reads the time left before the deadline, none without one", () => {
    const remaining = scopeOf({ timeoutMs: 2000 }).call.remainingMs();
    // A busy machine may take a while between the context and the read.
    expect(remaining).toBeGreaterThan(1000);
    expect(remaining).toBeLessThanOrEqual(2000);
    expect(scopeOf().call.remainingMs()).toBeUndefined();
  });

  it("reads 0 once the deadline passed, never a negative time", async () => {
    const { call } = scopeOf({ timeoutMs: 5 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(call.remainingMs()).toBe(0);
    expect(call.deadlinePassed()).toBe(true);
    expect(call.signal.aborted).toBe(true);
  });
});

describe("mapDeadline", () => {
  it("makes whatever a dependency threw after the deadline DEADLINE_EXCEEDED, keeping it as the cause", async () => {
    const { call } = scopeOf({ timeoutMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const thrown of [abortError(), cancelledStatement(), new AppError("DEPENDENCY_UNAVAILABLE", "workflow service unavailable")]) {
      const mapped = mapDeadline(call, thrown);
      expect(reasonOf(mapped)).toBe("DEADLINE_EXCEEDED");
      expect((mapped as Error).cause).toBe(thrown);
    }
  });

  it("leaves an error before the deadline, without a scope, or of a caller that went away as it is", () => {
    const thrown = new AppError("DEPENDENCY_UNAVAILABLE", "database unavailable");
    expect(mapDeadline(scopeOf({ timeoutMs: 60_000 }).call, thrown)).toBe(thrown);
    expect(mapDeadline(undefined, thrown)).toBe(thrown);
    const gone = new AbortController();
    const { call } = scopeOf({ requestSignal: gone.signal });
    gone.abort(new ConnectError("client went away", Code.Canceled));
    expect(call.deadlinePassed()).toBe(false);
    expect(mapDeadline(call, abortError())).toEqual(abortError());
  });

  it("maps through withinDeadline, and passes answers through", async () => {
    expect(await withinDeadline(undefined, async () => 7)).toBe(7);
    const { ctx, call } = scopeOf({ timeoutMs: 60_000 });
    const failed = withinDeadline(call, () => untilAborted(call.signal, abortError));
    expire(ctx);
    const error = await failureOf(failed);
    expect(reasonOf(error)).toBe("DEADLINE_EXCEEDED");
  });
});

describe("statement_timeout for the remaining time", () => {
  it("is whole milliseconds, at least 1, never above the session's bound", () => {
    expect(statementTimeoutWithin(0, 30_000)).toBe(1);
    expect(statementTimeoutWithin(0.2, undefined)).toBe(1);
    expect(statementTimeoutWithin(1500.3, 30_000)).toBe(1501);
    expect(statementTimeoutWithin(60_000, 30_000)).toBe(30_000);
    // 0: the session has no bound.
    expect(statementTimeoutWithin(60_000, 0)).toBe(60_000);
  });
});

function filesDeps() {
  // No trail: initiate writes none of its own.
  return fakeFileStorage(config, NOW, () => undefined as never);
}

const input: InitiateInput = {
  objectClass: "GENERAL_DOCUMENT",
  ownerEntityType: "User",
  ownerEntityId: "owner-1",
  originalFilename: "file.png",
  contentType: "image/png",
  fileSize: 100,
};

describe("initiate cut off by its deadline", () => {
  it("while the workflow starts: DEADLINE_EXCEEDED, the workflow withdrawn, no row", async () => {
    const { deps, objects, lifecycle } = filesDeps();
    const { ctx, call } = scopeOf({ timeoutMs: 60_000 });
    let startedWith: CallScope | undefined;
    (lifecycle as ObjectLifecycle).start = async (ref, _start, scope) => {
      lifecycle.calls.push({ method: "start", objectId: ref.objectId });
      startedWith = scope;
      const failed = untilAborted(scope?.signal, abortError);
      expire(ctx);
      return failed;
    };
    const error = await failureOf(initiateUpload(deps, actor, input, call));
    expect(reasonOf(error)).toBe("DEADLINE_EXCEEDED");
    expect(startedWith).toBe(call);
    expect(lifecycle.calls.map((c) => c.method)).toEqual(["start", "withdraw"]);
    expect(objects.rows.size).toBe(0);
  });

  it("while the rows are written: DEADLINE_EXCEEDED (not the adapter's INTERNAL), the workflow withdrawn, no row", async () => {
    const { deps, objects, lifecycle } = filesDeps();
    const { ctx, call } = scopeOf({ timeoutMs: 60_000 });
    const bounds: (number | undefined)[] = [];
    (objects as ObjectCatalog).createInitiated = async (_object, _session, _audit, _max, scope) => {
      bounds.push(scope?.remainingMs());
      // As the adapter's statement_timeout does: the statement is cancelled, nothing committed.
      const failed = untilAborted(scope?.signal, cancelledStatement);
      expire(ctx);
      return failed;
    };
    const error = await failureOf(initiateUpload(deps, actor, input, call));
    expect(reasonOf(error)).toBe("DEADLINE_EXCEEDED");
    expect(bounds).toHaveLength(1);
    expect(bounds[0]).toBeGreaterThan(0);
    expect(bounds[0]).toBeLessThanOrEqual(60_000);
    expect(lifecycle.calls.map((c) => c.method)).toEqual(["start", "withdraw"]);
    expect(objects.rows.size).toBe(0);
  });

  it("while storage starts the multipart upload: DEADLINE_EXCEEDED, no workflow, no row", async () => {
    const { deps, objects, storage, lifecycle } = filesDeps();
    const { ctx, call } = scopeOf({ timeoutMs: 60_000 });
    (storage as ObjectStorage).startMultipart = (_key, _type, scope) => {
      const failed = untilAborted(scope?.signal, abortError);
      expire(ctx);
      return failed;
    };
    const multipartInput = { ...input, fileSize: config.storage.multipartThresholdBytes, acceptMultipart: true };
    const error = await failureOf(initiateUpload(deps, actor, multipartInput, call));
    expect(reasonOf(error)).toBe("DEADLINE_EXCEEDED");
    expect(lifecycle.calls).toEqual([]);
    expect(objects.rows.size).toBe(0);
  });

  it("a multipart upload started before the deadline passed is aborted", async () => {
    const { deps, objects, storage, lifecycle } = filesDeps();
    const { ctx, call } = scopeOf({ timeoutMs: 60_000 });
    // Storage took it; the deadline passes before the answer is read.
    (storage as ObjectStorage).startMultipart = async () => expire(ctx);
    const aborted: string[] = [];
    (storage as ObjectStorage).abortMultipart = async (key) => {
      aborted.push(key);
      return 1;
    };
    const multipartInput = { ...input, fileSize: config.storage.multipartThresholdBytes, acceptMultipart: true };
    const error = await failureOf(initiateUpload(deps, actor, multipartInput, call));
    expect(reasonOf(error)).toBe("DEADLINE_EXCEEDED");
    expect(lifecycle.calls).toEqual([]);
    expect(aborted).toHaveLength(1);
    expect(objects.rows.size).toBe(0);
  });

  it("a failure before the deadline keeps its own reason", async () => {
    const { deps, objects, lifecycle } = filesDeps();
    const { call } = scopeOf({ timeoutMs: 60_000 });
    lifecycle.failNextStart = new AppError("DEPENDENCY_UNAVAILABLE", "workflow service unavailable (start workflow)");
    const error = await failureOf(initiateUpload(deps, actor, input, call));
    expect(reasonOf(error)).toBe("DEPENDENCY_UNAVAILABLE");
    expect(objects.rows.size).toBe(0);
  });
});

type Entities = CustomFieldEntityCatalog<{ name: string }, object>;

describe("entity writes cut off by their deadline", () => {
  const kind: EntityKind = { entityType: "Customer", noun: "customer", notFound: "CUSTOMER_NOT_FOUND" };
  const customFields: EntityCustomFields = {
    resolveForCreate: async (_actor, _type, values) => (values ?? {}) as Record<string, unknown>,
    validateForUpdate: async (_actor, _type, values) => values as Record<string, unknown>,
    parseFilters: async () => ({ clauses: [] }) as never,
  };
  const entityDeps = (store: MemoryEntityStore<{ name: string }, object>) => ({ store, customFields, now: () => NOW, newId: () => uuidv7() });

  it("create: DEADLINE_EXCEEDED and no row", async () => {
    const store = new MemoryEntityStore<{ name: string }, object>();
    const { ctx, call } = scopeOf({ timeoutMs: 60_000 });
    (store as Entities).insert = (_entity, scope) => {
      const failed = untilAborted(scope?.signal, cancelledStatement);
      expire(ctx);
      return failed;
    };
    const error = await failureOf(createEntity(kind, entityDeps(store), actor, { name: "Ada" }, {}, call));
    expect(reasonOf(error)).toBe("DEADLINE_EXCEEDED");
    expect(store.rows.size).toBe(0);
  });

  it("update: DEADLINE_EXCEEDED and the row as it was", async () => {
    const store = new MemoryEntityStore<{ name: string }, object>();
    const created = await createEntity(kind, entityDeps(store), actor, { name: "Ada" }, {});
    const { ctx, call } = scopeOf({ timeoutMs: 60_000 });
    (store as Entities).update = (_tenant, _id, _changes, _at, scope) => {
      const failed = untilAborted(scope?.signal, cancelledStatement);
      expire(ctx);
      return failed;
    };
    const error = await failureOf(updateEntity(kind, entityDeps(store), actor, { id: created.id, fields: { name: "Grace" } }, call));
    expect(reasonOf(error)).toBe("DEADLINE_EXCEEDED");
    expect(store.rows.get(created.id)).toMatchObject({ name: "Ada", version: 1 });
  });
});
