/**
 * Tampering with the audit trail directly in PostgreSQL, as someone with database access could:
 * an edited field, a deleted entry, a forged entry (unsealed, or carrying a correct link with the
 * later entries renumbered), two entries swapped, the tail cut off before a checkpoint. For each,
 * the VerifyAuditTrail RPC and `audit verify` of a CLI export name the exact entry and the kind,
 * and the CLI exits non-zero. One tenant per case, so that no case disturbs another. Then the
 * intact case: an export verified by a CLI pointed at an API that is not there, with the keys
 * fetched before from /.well-known/audit-signing-keys.json.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@connectrpc/connect";
import type { Knex } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditChainProblemKind, AuditService } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import { png } from "../fixtures/files/index.js";
import { runCli } from "../support/cli-process.js";
import { apiUrl, tokenFor, transportFor, uniqueTenant } from "../support/clients.js";
import { sql, withDb } from "../support/stack-access.js";
import { uploadThrough } from "../support/uploads.js";

const cli = runCli;

interface Link {
  id: string;
  sequence: number;
}

/** A tenant with entries from real uploads: `covered` uploads, a checkpoint, then `after` more. */
interface Trail {
  tenant: string;
  env: Record<string, string>;
  audit: ReturnType<typeof auditClient>;
  links: Link[];
  checkpointSequence: number;
  at(sequence: number): Link;
}

const auditClient = (token: string) => createClient(AuditService, transportFor("connect", token));

async function upload(token: string, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, (_, i) => uploadThrough(token, { objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: png(8 + i, 8) })));
}

async function linksOf(tenant: string): Promise<Link[]> {
  const rows = await sql<{ id: string; sequence: string }>("select entry_id::text as id, sequence from audit_chain_links where tenant_id = ? order by sequence", [tenant]);
  return rows.map((row) => ({ id: row.id, sequence: Number(row.sequence) }));
}

async function trail(prefix: string, covered = 2, after = 1): Promise<Trail> {
  const tenant = uniqueTenant(prefix);
  const token = await tokenFor(tenant);
  const audit = auditClient(token);
  await upload(token, covered);
  const { checkpoint } = await audit.createAuditCheckpoint({});
  await upload(token, after);
  const links = await linksOf(tenant);
  expect(links.map((l) => l.sequence)).toEqual(links.map((_, i) => i + 1));
  expect(Number(checkpoint!.sequence)).toBeGreaterThanOrEqual(3 * covered);
  return { tenant, env: { API_URL: apiUrl(), TOKEN: token }, audit, links, checkpointSequence: Number(checkpoint!.sequence), at: (sequence) => links[sequence - 1]! };
}

/** One session, so that a `set local` holds for the statements after it. */
async function inSession(work: (trx: Knex.Transaction) => Promise<unknown>): Promise<void> {
  await withDb((orm) => orm.em.getConnection().getKnex().transaction(async (trx) => void (await work(trx))));
}

/** Every link from `from` on moves by `by`, through negatives so that the primary key never sees two links on one. */
async function renumber(trx: Knex.Transaction, tenant: string, from: number, by: number): Promise<void> {
  await trx.raw("update audit_chain_links set sequence = -sequence where tenant_id = ? and sequence >= ?", [tenant, from]);
  await trx.raw("update audit_chain_links set sequence = -sequence + ? where tenant_id = ? and sequence <= ?", [by, tenant, -from]);
}

/** What an operator who cuts the tail deletes: the entries from `from` on and their links. */
async function cutTail(tenant: string, from: number): Promise<void> {
  await sql("delete from audit_entries where id in (select entry_id from audit_chain_links where tenant_id = ? and sequence >= ?)", [tenant, from]);
  await sql("delete from audit_chain_links where tenant_id = ? and sequence >= ?", [tenant, from]);
}

/** A copy of an entry under a new id and actor, inserted behind every trigger's back (the seal's included). */
async function forgeCopy(trx: Knex.Transaction, of: Link): Promise<string> {
  await trx.raw("set local session_replication_role = replica");
  await trx.raw("create temporary table forged on commit drop as select * from audit_entries where id = ?", [of.id]);
  const [row] = (await trx.raw("update forged set id = gen_random_uuid(), actor_id = 'forger' returning id::text as id")).rows;
  await trx.raw("insert into audit_entries select * from forged");
  return row.id as string;
}

describe("a tampered audit trail", () => {
  let dir: string;
  let keysFile: string;
  let n = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "audit-tamper-"));
    const response = await fetch(`${apiUrl()}/.well-known/audit-signing-keys.json`);
    expect(response.status).toBe(200);
    keysFile = path.join(dir, "audit-signing-keys.json");
    writeFileSync(keysFile, await response.text());
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** What the RPC and the CLI (export through the API, then verify offline) both say. */
  async function expectFound(subject: Trail, kind: keyof typeof AuditChainProblemKind, sequence: number, entryId: string | undefined) {
    const report = await subject.audit.verifyAuditTrail({});
    expect(report.intact, JSON.stringify(report, (_, value) => (typeof value === "bigint" ? String(value) : value))).toBe(false);
    expect({ kind: AuditChainProblemKind[report.problem!.kind], sequence: Number(report.problem!.sequence), entryId: report.problem!.entryId }).toEqual({ kind, sequence, entryId: entryId ?? "" });

    const file = path.join(dir, `export-${++n}.ndjson`);
    const exported = await cli(["audit", "export", "--out", file], subject.env);
    expect(exported.code, exported.stderr).toBe(0);
    const verified = await cli(["audit", "verify", file, "--keys", keysFile], subject.env);
    expect(verified.code, verified.stdout + verified.stderr).toBe(1);
    expect(verified.stdout).toMatch(new RegExp(`^TAMPERED: ${kind} at sequence ${sequence}${entryId ? `, entry ${entryId}` : ""}: `));
    return { report, verified };
  }

  it("names an entry whose actor was edited", async () => {
    const subject = await trail("tamper-edit");
    const victim = subject.at(3);
    await sql("update audit_entries set actor_id = 'someone-else' where id = ?", [victim.id]);
    await expectFound(subject, "EDITED", 3, victim.id);
  });

  it("names the place of a deleted entry", async () => {
    const subject = await trail("tamper-delete");
    await sql("delete from audit_entries where id = ?", [subject.at(4).id]);
    const { report } = await expectFound(subject, "REMOVED", 4, subject.at(5).id);
    expect(report.problem!.message).toContain("entry 4 is missing");
  });

  it("names the place of an entry deleted with its link", async () => {
    const subject = await trail("tamper-delete-link");
    await inSession(async (trx) => {
      await trx.raw("delete from audit_chain_links where entry_id = ?", [subject.at(4).id]);
      await trx.raw("delete from audit_entries where id = ?", [subject.at(4).id]);
    });
    await expectFound(subject, "REMOVED", 4, subject.at(5).id);
  });

  it("names the place of a deleted first entry", async () => {
    const subject = await trail("tamper-delete-first");
    await sql("delete from audit_entries where id = ?", [subject.at(1).id]);
    await expectFound(subject, "REMOVED", 1, subject.at(2).id);
  });

  it("names an entry inserted without being sealed", async () => {
    const subject = await trail("tamper-unsealed");
    let forged = "";
    await inSession(async (trx) => (forged = await forgeCopy(trx, subject.at(2))));
    // Unsealed rows come after the chain, in the RPC's walk and in the export.
    await expectFound(subject, "INSERTED", subject.links.length + 1, forged);
  });

  it("names an entry inserted with a correctly computed link, the later entries renumbered", async () => {
    const subject = await trail("tamper-forged-link");
    let forged = "";
    await inSession(async (trx) => {
      forged = await forgeCopy(trx, subject.at(2));
      await renumber(trx, subject.tenant, 4, 1);
      // The link a sealing would have given it at sequence 4, after entry 3.
      await trx.raw(
        `insert into audit_chain_links (tenant_id, sequence, entry_id, previous_hash, hash)
         select f.tenant_id, 4, f.id, p.hash,
                sha256(p.hash || convert_to(audit_entry_canonical(f.tenant_id, f.id, f.object_id, f.action, f.actor_id, f.request_id,
                  f.correlation_id, f.result, f.occurred_at, f.object_class, f.owner_type, f.owner_id, f.details), 'UTF8'))
           from audit_entries f join audit_chain_links p on p.tenant_id = f.tenant_id and p.sequence = 3
          where f.id = ?`,
        [forged],
      );
    });
    await expectFound(subject, "INSERTED", 4, forged);
  });

  it("names the moved entry when two entries' sequence numbers were swapped", async () => {
    const subject = await trail("tamper-swap");
    const [first, second] = [subject.at(3), subject.at(4)];
    await inSession(async (trx) => {
      await trx.raw("update audit_chain_links set sequence = -3 where entry_id = ?", [first.id]);
      await trx.raw("update audit_chain_links set sequence = 3 where entry_id = ?", [second.id]);
      await trx.raw("update audit_chain_links set sequence = 4 where entry_id = ?", [first.id]);
    });
    const { verified } = await expectFound(subject, "REORDERED", 3, second.id);
    expect(verified.stdout).toContain(`belongs after entry ${first.id}`);
  });

  it("names a tail cut off before the last checkpoint", async () => {
    const subject = await trail("tamper-truncate");
    const cut = subject.checkpointSequence - 1;
    await cutTail(subject.tenant, cut);
    await expectFound(subject, "TRUNCATED", cut, undefined);
  });

  it("names the checkpoint a tail cut off and written again no longer matches", async () => {
    const subject = await trail("tamper-truncate-rewrite");
    const cut = subject.checkpointSequence - 1;
    await cutTail(subject.tenant, cut);
    // New entries after the cut are sealed as genuine and take the cut sequences again.
    await sql(
      `insert into audit_entries (id, tenant_id, object_id, action, actor_id, result, occurred_at, webhooks_dispatched_at)
       select gen_random_uuid(), ?, gen_random_uuid(), 'OBJECT_DELETED', 'rewriter', 'SUCCESS', now(), now() from generate_series(1, 3)`,
      [subject.tenant],
    );
    const [replaced] = await sql<{ id: string }>("select entry_id::text as id from audit_chain_links where tenant_id = ? and sequence = ?", [subject.tenant, subject.checkpointSequence]);
    await expectFound(subject, "CHECKPOINT_MISMATCH", subject.checkpointSequence, replaced!.id);
  });
});

describe("an intact audit trail", () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(tmpdir(), "audit-intact-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("verifies, through the RPC and offline from an export, and says how far the checkpoints cover it", async () => {
    const subject = await trail("intact", 2, 1);
    const total = subject.links.length;
    const uncovered = total - subject.checkpointSequence;
    expect(uncovered).toBeGreaterThan(0);

    const report = await subject.audit.verifyAuditTrail({});
    expect(report).toMatchObject({ intact: true, firstSequence: 1n, lastSequence: BigInt(total), entriesChecked: BigInt(total), checkpointsChecked: 1n });
    expect(report.lastVerifiedCheckpoint?.sequence).toBe(BigInt(subject.checkpointSequence));

    const keysFile = path.join(dir, "audit-signing-keys.json");
    writeFileSync(keysFile, await (await fetch(`${apiUrl()}/.well-known/audit-signing-keys.json`)).text());
    const file = path.join(dir, "intact.ndjson");
    const exported = await cli(["audit", "export", "--out", file], subject.env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(new RegExp(`audit export: ${total} entries up to .* \\(done\\)`));

    // No server: the API URL points at a port nothing listens on.
    const offline = await cli(["audit", "verify", file, "--keys", keysFile, "--api", "http://127.0.0.1:9"], subject.env);
    expect(offline.code, offline.stdout + offline.stderr).toBe(0);
    const covered = `covered up to sequence ${subject.checkpointSequence} \\(signed [0-9T:.-]+Z with key [^)]+\\)`;
    expect(offline.stdout.trim()).toMatch(new RegExp(`^intact: ${total} entries of tenant ${subject.tenant} \\(sequence 1 to ${total}\\), 1 checkpoint verified, ${covered}; ${uncovered} entr(y|ies) after the last checkpoint (is|are) not yet covered$`));

    // Without keys, the CLI fetches them once from the API and says so.
    const online = await cli(["audit", "verify", file], subject.env);
    expect(online.code, online.stdout + online.stderr).toBe(0);
    expect(online.stderr).toContain("no --key or --keys given; using the");
    expect(online.stdout).toBe(offline.stdout);
  });

  it("verifies an incremental archive against the last entry of the archive before it", async () => {
    const subject = await trail("incremental", 1, 1);
    const first = path.join(dir, "first.ndjson");
    expect((await cli(["audit", "export", "--out", first], subject.env)).code).toBe(0);
    const lines = readFileSync(first, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const last = lines.filter((line) => !line.checkpoint).at(-1).chain as { sequence: string; hash: string };
    await upload(await tokenFor(subject.tenant), 1);

    const next = path.join(dir, "next.ndjson");
    expect((await cli(["audit", "export", "--after-sequence", last.sequence, "--out", next], subject.env)).code).toBe(0);
    const sequences = readFileSync(next, "utf8").trim().split("\n").map((line) => JSON.parse(line).chain?.sequence).filter(Boolean);
    expect(sequences[0]).toBe(String(Number(last.sequence) + 1));

    const anchored = await cli(["audit", "verify", next, "--anchor", `${last.sequence}:${last.hash}`], subject.env);
    expect(anchored.code, anchored.stdout + anchored.stderr).toBe(0);
    expect(anchored.stdout).toMatch(new RegExp(`^intact: ${sequences.length} entries of tenant ${subject.tenant} \\(sequence ${Number(last.sequence) + 1} to `));
    // The archive before it ended elsewhere, or is not given: the start cannot be shown to follow.
    const wrong = await cli(["audit", "verify", next, "--anchor", `${last.sequence}:${"0".repeat(64)}`], subject.env);
    expect([wrong.code, wrong.stdout]).toEqual([1, expect.stringMatching(/^TAMPERED: REMOVED at sequence /)]);
    const unanchored = await cli(["audit", "verify", next], subject.env);
    expect([unanchored.code, unanchored.stdout]).toEqual([1, expect.stringMatching(/^TAMPERED: REMOVED at sequence 1[,:]/)]);
  });
});
