/**
 * Signed checkpoints of a tenant's audit chain through the real stack: CreateAuditCheckpoint over
 * Connect and REST signs the head with the configured Ed25519 key, which verifies the signature
 * with nothing but node:crypto and the public key from ListAuditSigningKeys or the unauthenticated
 * well-known document; a head already signed answers its checkpoint unchanged; the checkpoints
 * page newest first; a chain edited in PostgreSQL is not signed. A second API and worker with a
 * rotated key sign the next checkpoints with the new key while the old key, retired, still
 * verifies the earlier ones. The worker keeps the hourly `audit-checkpoints` schedule and its
 * workflow signs every tenant that needs it.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AuditService } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import { AuditAction, type AuditCheckpoint } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { PostgresAuditCheckpointStore } from "../../src/adapters/postgres/audit-checkpoint-store.js";
import { AUDIT_CHECKPOINT_SCHEDULE_ID } from "../../src/adapters/temporal/audit-checkpoint-schedule.js";
import { auditKeySettings } from "../../src/config/audit.js";
import { runCli } from "../support/cli-process.js";
import { apiUrl, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { reasonOf } from "../support/errors.js";
import { startProcessPair, type ProcessPair } from "../support/process-pair.js";
import { sql, stackConfig, withDb, withTemporal } from "../support/stack-access.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

const WELL_KNOWN = "/.well-known/audit-signing-keys.json";

interface PublishedKey {
  keyId: string;
  algorithm: string;
  publicKeyPem: string;
  current: boolean;
}

function bearer(token: string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
}

const auditClient = (token: string, baseUrl = apiUrl()) => createClient(AuditService, createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors: [bearer(token)] }));

const cli = runCli;

/** Entries written straight into the table: the trigger seals them as it seals every writer's. */
async function writeEntries(tenant: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await sql(
      `insert into audit_entries (id, tenant_id, object_id, action, actor_id, result, details, occurred_at, webhooks_dispatched_at)
       values (?, ?, ?, 'UPLOAD_INITIATED', 'checkpoint-test', 'SUCCESS', '{}', clock_timestamp(), now())`,
      [randomUUID(), tenant, randomUUID()],
    );
  }
}

async function headOf(tenant: string): Promise<{ sequence: number; hash: string }> {
  const [row] = await sql<{ sequence: string; hash: string }>("select sequence, encode(hash, 'hex') as hash from audit_chain_links where tenant_id = ? order by sequence desc limit 1", [tenant]);
  return { sequence: Number(row!.sequence), hash: row!.hash };
}

/** A checkpoint as its JSON reads: what an auditor holds, whatever transport it came by. */
interface CheckpointJson {
  tenantId: string;
  sequence: string;
  hash: string;
  signedAt: string;
  keyId: string;
  signature: string;
  payload: string;
}

const asJson = (c: AuditCheckpoint): CheckpointJson => ({ ...c, sequence: String(c.sequence), signedAt: timestampDate(c.signedAt!).toISOString() });

/** The payload rebuilt from the checkpoint's fields as an auditor would, not taken from the answer. */
function payloadOf(c: Pick<CheckpointJson, "tenantId" | "sequence" | "hash" | "signedAt">): Buffer {
  return Buffer.from(`files-and-fields audit checkpoint v1\n${c.tenantId}\n${c.sequence}\n${c.hash}\n${new Date(c.signedAt).toISOString()}\n`, "utf8");
}

/** node:crypto and the published PEM: nothing of the server's code. */
function signatureHolds(checkpoint: CheckpointJson, keys: PublishedKey[]): boolean {
  const key = keys.find((k) => k.keyId === checkpoint.keyId);
  if (!key) return false;
  const payload = payloadOf(checkpoint);
  expect(checkpoint.payload).toBe(payload.toString("utf8"));
  return verify(null, payload, createPublicKey(key.publicKeyPem), Buffer.from(checkpoint.signature, "base64"));
}

async function wellKnownKeys(baseUrl: string): Promise<{ keys: PublishedKey[]; cacheControl: string | null }> {
  const res = await fetch(`${baseUrl}${WELL_KNOWN}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json");
  return { keys: ((await res.json()) as { keys: PublishedKey[] }).keys, cacheControl: res.headers.get("cache-control") };
}

describe("CreateAuditCheckpoint", () => {
  let tenant: string;
  let token: string;
  let first: AuditCheckpoint;

  beforeAll(async () => {
    tenant = uniqueTenant("checkpoints");
    token = await tokenFor(tenant, { perms: ["audit:READ"] });
    await writeEntries(tenant, 3);
  });

  it("over Connect signs the head; the key from ListAuditSigningKeys and the well-known URL, fetched without a token, verifies it", async () => {
    const head = await headOf(tenant);
    const audit = auditClient(token);
    const { checkpoint, created } = await audit.createAuditCheckpoint({});
    expect(created).toBe(true);
    first = checkpoint!;
    expect({ tenantId: first.tenantId, sequence: Number(first.sequence), hash: first.hash, keyId: first.keyId }).toEqual({ tenantId: tenant, sequence: head.sequence, hash: head.hash, keyId: "integration-1" });

    const { keys } = await audit.listAuditSigningKeys({});
    expect(keys.map((k) => ({ keyId: k.keyId, algorithm: k.algorithm, current: k.current }))).toEqual([{ keyId: "integration-1", algorithm: "Ed25519", current: true }]);
    const published = await wellKnownKeys(apiUrl());
    expect(published.cacheControl).toContain("max-age=300");
    expect(published.keys).toEqual(keys.map(({ keyId, algorithm, publicKeyPem, current }) => ({ keyId, algorithm, publicKeyPem, current })));
    expect(signatureHolds(asJson(first), published.keys)).toBe(true);
    // The same check fails on a payload changed by one sequence: it is no formality.
    expect(verify(null, payloadOf({ ...asJson(first), sequence: String(head.sequence - 1) }), createPublicKey(published.keys[0]!.publicKeyPem), Buffer.from(first.signature, "base64"))).toBe(false);
  });

  it("answers the same checkpoint, not created, when no entry was written since; over REST a new entry gets a new one", async () => {
    const again = await rest("POST", "/api/v1/audit-checkpoints", { token, body: {} });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.checkpoint).toMatchObject({ sequence: String(first.sequence), hash: first.hash, signature: first.signature, keyId: first.keyId });

    await writeEntries(tenant, 1);
    const next = await rest("POST", "/api/v1/audit-checkpoints", { token, body: {} });
    expect(next.status).toBe(200);
    expect(next.body.created).toBe(true);
    // After the first checkpoint's own entry and the new one.
    expect(Number(next.body.checkpoint.sequence)).toBe(Number(first.sequence) + 2);
    expect(signatureHolds(next.body.checkpoint as CheckpointJson, (await wellKnownKeys(apiUrl())).keys)).toBe(true);
  });

  it("signs nothing for a tenant without entries", async () => {
    const { checkpoint, created } = await auditClient(await tokenFor(uniqueTenant("checkpoints-empty"))).createAuditCheckpoint({});
    expect({ checkpoint, created }).toEqual({ checkpoint: undefined, created: false });
  });

  it("refuses to sign a chain edited in the database, naming the entry, and logs it as an error", async () => {
    const edited = uniqueTenant("checkpoints-edited");
    const editedToken = await tokenFor(edited);
    await writeEntries(edited, 2);
    await auditClient(editedToken).createAuditCheckpoint({});
    await writeEntries(edited, 2);
    const [row] = await sql<{ id: string }>("update audit_entries set actor_id = 'mallory' where id = (select entry_id from audit_chain_links where tenant_id = ? and sequence = 3) returning id::text as id", [edited]);
    const refused = await rest("POST", "/api/v1/audit-checkpoints", { token: editedToken, body: {} });
    expect(refused.status).toBe(400);
    expect(reasonOf(refused.body)).toBe("AUDIT_CHAIN_BROKEN");
    expect(refused.body.message).toContain(`entry ${row!.id} at sequence 3 was edited`);
    expect(await sql("select sequence from audit_checkpoints where tenant_id = ?", [edited])).toEqual([{ sequence: "2" }]);
    const logged = readFileSync(path.join(inject("logDir"), "api.log"), "utf8").split("\n").filter((line) => line.includes(edited) && line.includes("audit chain does not verify"));
    expect(logged.map((line) => JSON.parse(line) as { level: number; problem: { kind: string } }).map((l) => [l.level, l.problem.kind])).toEqual([[50, "EDITED"]]);
  });
});

describe("a checkpoint in the audit trail", () => {
  let tenant: string;
  let token: string;
  let checkpoint: AuditCheckpoint;

  const ownEntries = async (audit = auditClient(token)) =>
    (await audit.searchAuditEntries({ filter: { actions: [AuditAction.AUDIT_CHECKPOINT_SIGNED] }, pageSize: 50 })).auditEntries;

  beforeAll(async () => {
    tenant = uniqueTenant("checkpoint-entry");
    token = await tokenFor(tenant);
    await writeEntries(tenant, 3);
  });

  it("is an AUDIT_CHECKPOINT_SIGNED entry of the tenant, of no object, holding the checkpoint, chained right after it", async () => {
    const signed = await auditClient(token).createAuditCheckpoint({});
    expect(signed.created).toBe(true);
    checkpoint = signed.checkpoint!;
    const entries = await ownEntries();
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect({
      objectId: entry!.objectId,
      actorId: entry!.actorId,
      result: entry!.result,
      correlationId: entry!.correlationId,
      occurredAt: timestampDate(entry!.occurredAt!).toISOString(),
      objectClass: entry!.objectClass,
      ownerType: entry!.ownerType,
      sequence: entry!.chain?.sequence,
    }).toEqual({
      objectId: "00000000-0000-0000-0000-000000000000",
      actorId: "system",
      result: "SUCCESS",
      correlationId: "checkpoint:3",
      occurredAt: timestampDate(checkpoint.signedAt!).toISOString(),
      objectClass: 0,
      ownerType: "",
      sequence: 4n,
    });
    expect(entry!.details).toEqual({ sequence: 3, hash: checkpoint.hash, keyId: checkpoint.keyId, signedAt: timestampDate(checkpoint.signedAt!).toISOString(), signature: checkpoint.signature });
  });

  it("does not count as a moved head: a second signing right after answers created=false and writes no second entry", async () => {
    const again = await auditClient(token).createAuditCheckpoint({});
    expect({ created: again.created, sequence: again.checkpoint?.sequence, signature: again.checkpoint?.signature }).toEqual({ created: false, sequence: 3n, signature: checkpoint.signature });
    expect(await ownEntries()).toHaveLength(1);
    expect((await headOf(tenant)).sequence).toBe(4);
  });

  it("is not written again by a retried or concurrent store of the same checkpoint", async () => {
    await withDb(async (orm) => {
      const store = new PostgresAuditCheckpointStore(orm);
      const stored = { ...asJson(checkpoint), sequence: 3, signedAt: timestampDate(checkpoint.signedAt!) };
      expect((await store.insert(stored)).signature).toBe(checkpoint.signature);
      // Another signer's checkpoint of the same head: the first stays, with its one entry.
      const other = { ...stored, signedAt: new Date(stored.signedAt.getTime() + 1000), signature: Buffer.from("another signature").toString("base64") };
      expect((await store.insert(other)).signature).toBe(checkpoint.signature);
    });
    expect(await ownEntries()).toHaveLength(1);
  });

  it("keeps the chain intact; the schedule's query lists the tenant only once another entry follows it", async () => {
    const report = await auditClient(token).verifyAuditTrail({});
    expect({ intact: report.intact, lastSequence: report.lastSequence, lastVerified: report.lastVerifiedCheckpoint?.sequence }).toEqual({ intact: true, lastSequence: 4n, lastVerified: 3n });
    const pending = () => withDb((orm) => new PostgresAuditCheckpointStore(orm).tenantsToCheckpoint(100_000));
    expect(await pending()).not.toContain(tenant);
    await writeEntries(tenant, 1);
    expect(await pending()).toContain(tenant);
    const next = await auditClient(token).createAuditCheckpoint({});
    // The own entry at 4 is signed with the entry at 5.
    expect({ created: next.created, sequence: next.checkpoint?.sequence }).toEqual({ created: true, sequence: 5n });
    expect((await ownEntries()).map((e) => e.correlationId).sort()).toEqual(["checkpoint:3", "checkpoint:5"]);
  });

  it("is listed by the CLI's audit search, without an object", async () => {
    const run = await cli(["audit", "search", "--action", "AUDIT_CHECKPOINT_SIGNED", "--oldest-first"], { API_URL: apiUrl(), TOKEN: token });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n").map((line) => line.split("  ").slice(1))).toEqual([
      ["AUDIT_CHECKPOINT_SIGNED", "SUCCESS", "system", "-", "checkpoint:3"],
      ["AUDIT_CHECKPOINT_SIGNED", "SUCCESS", "system", "-", "checkpoint:5"],
    ]);
  });

  it("reaches a webhook endpoint subscribed to audit_checkpoint.signed, with the checkpoint in its details", { timeout: 60_000 }, async () => {
    const watched = uniqueTenant("checkpoint-webhook");
    const watchedToken = await tokenFor(watched);
    const receiver = await WebhookReceiver.start();
    try {
      const endpoint = await rest("POST", "/api/v1/webhook-endpoints", { token: watchedToken, body: { url: receiver.url, eventTypes: ["audit_checkpoint.signed"] } });
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
      receiver.secret = endpoint.body.secret;
      await writeEntries(watched, 2);
      const signed = (await auditClient(watchedToken).createAuditCheckpoint({})).checkpoint!;
      const [received] = await receiver.waitFor((all) => all.length >= 1);
      expect(received!.verifyError).toBeUndefined();
      const [own] = await ownEntries(auditClient(watchedToken));
      expect(received!.payload).toEqual({
        type: "audit_checkpoint.signed",
        timestamp: timestampDate(signed.signedAt!).toISOString(),
        data: {
          object: null,
          auditEntryId: own!.id,
          actorId: "system",
          result: "SUCCESS",
          details: { sequence: 2, hash: signed.hash, keyId: signed.keyId, signedAt: timestampDate(signed.signedAt!).toISOString(), signature: signed.signature },
        },
      });
      // What an auditor keeps from it verifies with the published key alone.
      const kept = { ...received!.payload.data.details, sequence: String(received!.payload.data.details.sequence), tenantId: watched, payload: asJson(signed).payload };
      expect(signatureHolds(kept, (await wellKnownKeys(apiUrl())).keys)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

describe("the checkpoint gauges", () => {
  /** The API's metrics listener; its database gauges are read at most every 10 s. */
  async function gauges(tenant: string): Promise<Record<string, number>> {
    const text = await (await fetch(`http://127.0.0.1:${inject("stackEnv").METRICS_PORT}/metrics`)).text();
    const found: Record<string, number> = {};
    for (const line of text.split("\n")) {
      const match = /^(audit_last_checkpoint_sequence|audit_last_checkpoint_timestamp_seconds|audit_unsigned_entries)\{tenant="([^"]+)"\} (\S+)$/.exec(line);
      if (match?.[2] === tenant) found[match[1]!] = Number(match[3]);
    }
    return found;
  }

  it("show the last verified checkpoint of the tenant and the entries written since, from the database", { timeout: 60_000 }, async () => {
    const tenant = uniqueTenant("checkpoints-gauges");
    await writeEntries(tenant, 3);
    const { checkpoint } = await auditClient(await tokenFor(tenant)).createAuditCheckpoint({});
    await writeEntries(tenant, 2);
    const expected = {
      audit_last_checkpoint_sequence: 3,
      audit_last_checkpoint_timestamp_seconds: timestampDate(checkpoint!.signedAt!).getTime() / 1000,
      audit_unsigned_entries: 2,
    };
    // The reading cached before these writes serves scrapes for up to 10 s: poll past it, bounded.
    let seen = await gauges(tenant);
    const settled = () => Object.entries(expected).every(([name, value]) => seen[name] === value);
    for (let i = 0; i < 25 && !settled(); i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      seen = await gauges(tenant);
    }
    expect(seen).toEqual(expected);
  });
});

describe("ListAuditCheckpoints", () => {
  it("pages the tenant's checkpoints newest first, over Connect and REST", async () => {
    const tenant = uniqueTenant("checkpoints-list");
    const token = await tokenFor(tenant);
    const audit = auditClient(token);
    const signed: number[] = [];
    for (let i = 0; i < 3; i++) {
      await writeEntries(tenant, 2);
      signed.push(Number((await audit.createAuditCheckpoint({})).checkpoint!.sequence));
    }
    const firstPage = await audit.listAuditCheckpoints({ pageSize: 2 });
    expect(firstPage.checkpoints.map((c) => Number(c.sequence))).toEqual([signed[2], signed[1]]);
    expect(firstPage.nextPageToken).not.toBe("");
    const secondPage = await rest("GET", `/api/v1/audit-checkpoints?pageSize=2&pageToken=${firstPage.nextPageToken}`, { token });
    expect(secondPage.status).toBe(200);
    expect(secondPage.body.checkpoints.map((c: { sequence: string }) => Number(c.sequence))).toEqual([signed[0]]);
    expect(secondPage.body.nextPageToken).toBe("");
    // Another tenant's list is its own.
    expect((await auditClient(await tokenFor(uniqueTenant("checkpoints-other"))).listAuditCheckpoints({})).checkpoints).toEqual([]);
  });
});

describe("the well-known document", () => {
  it("is public and read-only", async () => {
    expect((await fetch(`${apiUrl()}${WELL_KNOWN}`, { method: "POST" })).status).toBe(405);
  });
});

describe("key rotation", () => {
  let pair: ProcessPair | undefined;

  afterAll(async () => {
    await pair?.supervisor.stopAll();
  });

  it("an API with a new key signs new checkpoints with it; the old key, retired, still verifies the earlier ones", { timeout: 240_000 }, async () => {
    const suiteKey = inject("stackEnv").AUDIT_SIGNING_KEY!;
    const suitePrivate = createPrivateKey({ key: Buffer.from(suiteKey.slice(suiteKey.indexOf(":") + 1), "base64"), format: "der", type: "pkcs8" });
    const retired = auditKeySettings("integration-1", suitePrivate).retiredPublicKey;
    const rotated = auditKeySettings("rotated-2", generateKeyPairSync("ed25519").privateKey);
    pair = await startProcessPair("audit-rotation", { AUDIT_SIGNING_KEY: rotated.signingKey, AUDIT_RETIRED_PUBLIC_KEYS: retired });

    const tenant = uniqueTenant("checkpoints-rotation");
    const token = await tokenFor(tenant);
    await writeEntries(tenant, 2);
    const before = (await auditClient(token).createAuditCheckpoint({})).checkpoint!;
    await writeEntries(tenant, 2);
    // The new API verifies the chain from the old checkpoint on, its signature with the retired key, before it signs.
    const rotatedAudit = auditClient(token, pair.baseUrl);
    const after = await rotatedAudit.createAuditCheckpoint({});
    expect(after.created).toBe(true);
    expect([before.keyId, after.checkpoint!.keyId]).toEqual(["integration-1", "rotated-2"]);

    const { keys } = await wellKnownKeys(pair.baseUrl);
    expect(keys.map((k) => [k.keyId, k.current])).toEqual([["rotated-2", true], ["integration-1", false]]);
    expect((await rotatedAudit.listAuditSigningKeys({})).keys.map((k) => k.keyId)).toEqual(["rotated-2", "integration-1"]);
    expect(signatureHolds(asJson(before), keys)).toBe(true);
    expect(signatureHolds(asJson(after.checkpoint!), keys)).toBe(true);
    // The suite's API, which knows only the old key, cannot verify the new checkpoint.
    expect(signatureHolds(asJson(after.checkpoint!), (await wellKnownKeys(apiUrl())).keys)).toBe(false);
    const listed = await rotatedAudit.listAuditCheckpoints({});
    expect(listed.checkpoints.map((c) => c.keyId)).toEqual(["rotated-2", "integration-1"]);
  });
});

describe("the audit-checkpoints schedule", () => {
  it("exists once the worker started, on the suite's task queue, at the configured interval", async () => {
    const suite = stackConfig();
    const description = await withTemporal((client) => client.schedule.getHandle(AUDIT_CHECKPOINT_SCHEDULE_ID).describe());
    expect(description.action).toMatchObject({ type: "startWorkflow", workflowType: "auditCheckpoints", taskQueue: suite.temporal.taskQueue });
    expect(description.memo?.owner).toBe(suite.temporal.taskQueue);
    expect(description.spec.intervals?.map((i) => i.every)).toEqual([suite.audit.checkpointIntervalSeconds * 1000]);
  });

  it("runs a workflow that signs every tenant whose head moved, and skips a broken chain", { timeout: 120_000 }, async () => {
    const moved = uniqueTenant("checkpoints-scheduled");
    await writeEntries(moved, 2);
    const broken = uniqueTenant("checkpoints-scheduled-broken");
    await writeEntries(broken, 2);
    await sql("update audit_entries set result = 'FAILURE' where id = (select entry_id from audit_chain_links where tenant_id = ? and sequence = 1)", [broken]);
    const result = await withTemporal((client, taskQueue) =>
      client.workflow.execute("auditCheckpoints", { taskQueue, workflowId: `audit-checkpoints-test-${randomUUID()}`, args: [{ batchSize: 1000, maxBatches: 10 }] }),
    );
    expect(result).toMatchObject({ signed: expect.any(Number), refused: expect.any(Number) });
    expect((result as { refused: number }).refused).toBeGreaterThanOrEqual(1);
    expect(await sql("select sequence from audit_checkpoints where tenant_id = ?", [moved])).toEqual([{ sequence: "2" }]);
    expect(await sql("select sequence from audit_checkpoints where tenant_id = ?", [broken])).toEqual([]);
    // A second run finds the head moved by the checkpoint's own entry only: nothing to sign.
    await withTemporal((client, taskQueue) =>
      client.workflow.execute("auditCheckpoints", { taskQueue, workflowId: `audit-checkpoints-test-${randomUUID()}`, args: [{ batchSize: 1000, maxBatches: 10 }] }),
    );
    expect(await sql("select sequence from audit_checkpoints where tenant_id = ?", [moved])).toEqual([{ sequence: "2" }]);
    expect(await sql("select chain_sequence, correlation_id from audit_entries_chained where tenant_id = ? and action = 'AUDIT_CHECKPOINT_SIGNED'", [moved])).toEqual([
      { chain_sequence: "3", correlation_id: "checkpoint:2" },
    ]);
    const logged = readFileSync(path.join(inject("logDir"), "worker.log"), "utf8").split("\n").filter((line) => line.includes(broken) && line.includes("audit chain does not verify"));
    expect(logged.length).toBeGreaterThanOrEqual(1);
  });
});
