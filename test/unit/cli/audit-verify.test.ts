/**
 * `audit verify FILE` on synthetic NDJSON exports, written as `audit export` writes them (the
 * contract's JSON of each entry, then one {"checkpoint": ...} line per checkpoint), hashed with
 * linkHash and signed with generated Ed25519 keys: an intact export exits 0 and says how far the
 * checkpoints cover it; each kind of tampering exits 1 naming the first entry and how.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { create, toJson } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditAction, AuditCheckpointSchema, AuditEntrySchema, ObjectClass } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import type { ApiClients } from "@files-and-fields/client/node";
import { runAuditVerify } from "../../../src/cli/audit-verify/verify-command.js";
import type { CliContext } from "../../../src/cli/context.js";
import { runCli } from "../../../src/cli/run-cli.js";
import { type CanonicalEntry, parseCanonical } from "../../../src/domain/audit/chain/canonical-entry.js";
import type { ChainedEntry, Checkpoint } from "../../../src/domain/audit/chain/chain-link.js";
import { checkpointPayload } from "../../../src/domain/audit/chain/checkpoint-payload.js";
import { jsonWriteOptions } from "../../../src/rpc/json-options.js";
import { auditEntryMessageOf } from "./audit-entry-message.js";
import { canonicalText, chainOf, checkpointAt, fieldsOf, reseal, sealed, type SigningKey, signingKey } from "../audit/chain-fixtures.js";

type Line = Record<string, unknown>;

/** An entry's line as `audit export` writes it: the contract's JSON, from the fields its canonical text holds. */
function entryLine(link: ChainedEntry): Line {
  return toJson(AuditEntrySchema, auditEntryMessageOf(link), jsonWriteOptions) as Line;
}

function checkpointLine(checkpoint: Checkpoint): Line {
  const message = create(AuditCheckpointSchema, {
    ...checkpoint,
    sequence: BigInt(checkpoint.sequence),
    signedAt: timestampFromDate(checkpoint.signedAt),
    payload: checkpointPayload(checkpoint.tenantId, checkpoint.sequence, checkpoint.hash, checkpoint.signedAt),
  });
  return { checkpoint: toJson(AuditCheckpointSchema, message, jsonWriteOptions) };
}

const unsealedLine = (fields: CanonicalEntry): Line => {
  const line = entryLine(sealed(fields.id, 1, "00".repeat(32), canonicalText(fields)));
  delete line.chain;
  return line;
};

describe("npm run cli -- audit verify", () => {
  const key = signingKey("key-2026");
  const retired = signingKey("key-2025");
  let dir: string;
  const file = (name: string) => path.join(dir, name);
  let chain: ChainedEntry[];
  let checkpoints: Checkpoint[];
  let count = 0;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "audit-verify-"));
    for (const signer of [key, retired]) writeFileSync(file(`${signer.keyId}.pem`), signer.publicKey.export({ type: "spki", format: "pem" }));
    chain = chainOf(10);
    checkpoints = [checkpointAt(chain[3]!, key), checkpointAt(chain[7]!, key)];
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const keyArg = (signer: SigningKey) => ["--key", `${signer.keyId}=${file(`${signer.keyId}.pem`)}`];

  function exportFile(lines: Line[], raw = lines.map((line) => JSON.stringify(line)).join("\n")): string {
    const name = file(`export-${++count}.ndjson`);
    writeFileSync(name, `${raw}\n`);
    return name;
  }

  const exportOf = (entries: ChainedEntry[], signed: Checkpoint[] = checkpoints) => exportFile([...entries.map(entryLine), ...signed.map(checkpointLine)]);

  async function verify(exported: string, ...args: string[]) {
    const stdout = new PassThrough();
    let out = "";
    stdout.on("data", (chunk) => (out += chunk));
    let err = "";
    const code = await runCli(["audit", "verify", exported, ...(args.length ? args : keyArg(key))], { env: {}, stdout, stderr: { isTTY: false, write: (text) => void (err += text) } });
    return { code, out: out.trim(), err };
  }

  describe("an intact export", () => {
    it("exits 0 and says how far the checkpoints cover it", async () => {
      const result = await verify(exportOf(chain));
      expect(result.code, result.err).toBe(0);
      expect(result.out).toMatch(
        /^intact: 10 entries of tenant tenant-chain \(sequence 1 to 10\), 2 checkpoints verified, covered up to sequence 8 \(signed 2026-01-02T00:00:08\.000Z with key key-2026\); 2 entries after the last checkpoint are not yet covered$/,
      );
    });

    it("says when every entry is covered, and when none is", async () => {
      expect((await verify(exportOf(chain, [checkpointAt(chain[9]!, key)]))).out).toMatch(/1 checkpoint verified, covered up to sequence 10 .*; every entry is covered$/);
      const unsigned = await verify(exportOf(chain, []));
      expect(unsigned.code).toBe(0);
      expect(unsigned.out).toMatch(/^intact: 10 entries .* no checkpoint covers them/);
    });

    it("verifies checkpoints of a retired key after a rotation", async () => {
      const rotated = [checkpointAt(chain[3]!, retired), checkpointAt(chain[8]!, key)];
      const result = await verify(exportOf(chain, rotated), ...keyArg(retired), ...keyArg(key));
      expect(result.code, result.out).toBe(0);
      expect(result.out).toMatch(/2 checkpoints verified, covered up to sequence 9 .* with key key-2026\)/);
      expect((await verify(exportOf(chain, rotated), ...keyArg(key))).out).toMatch(/^TAMPERED: BAD_SIGNATURE at sequence 4: .*"key-2025"/);
    });

    it("takes the keys as the well-known document", async () => {
      const document = file("keys.json");
      const keys = [retired, key].map((signer) => ({ keyId: signer.keyId, algorithm: "Ed25519", publicKeyPem: signer.publicKey.export({ type: "spki", format: "pem" }), current: signer === key }));
      writeFileSync(document, JSON.stringify({ keys }));
      const result = await verify(exportOf(chain, [checkpointAt(chain[3]!, retired), checkpointAt(chain[8]!, key)]), "--keys", document);
      expect(result.code, result.out + result.err).toBe(0);
    });

    it("needs no server once it has the keys", async () => {
      const result = await verify(exportOf(chain), ...keyArg(key), "--api", "http://127.0.0.1:9");
      expect(result.code, result.err).toBe(0);
    });

    it("reads the REST export's lines ({\"auditEntry\": ...}) too", async () => {
      const result = await verify(exportFile([...chain.map((link) => ({ auditEntry: entryLine(link) })), ...checkpoints.map(checkpointLine)]));
      expect(result.code, result.out).toBe(0);
    });

    it("fetches the keys from the API when none is given, and says so", async () => {
      const lines: string[] = [];
      let notes = "";
      const ctx = {
        clients: { audit: { listAuditSigningKeys: async () => ({ keys: [{ keyId: key.keyId, algorithm: "Ed25519", publicKeyPem: key.publicKey.export({ type: "spki", format: "pem" }), current: true }] }) } } as unknown as ApiClients,
        out: (line: string) => lines.push(line),
        stdout: new PassThrough(),
        err: { isTTY: false, write: (text: string) => void (notes += text) },
        json: false,
        sleep: async () => {},
      } satisfies CliContext;
      expect(await runAuditVerify(ctx, exportOf(chain), {})).toBe(0);
      expect(notes).toContain("using the 1 signing key(s) the API lists (key-2026)");
      expect(lines[0]).toMatch(/^intact: 10 entries/);
    });
  });

  describe("a tampered export exits 1 and names the first entry", () => {
    it("a field edited in the entry's JSON (the canonical text left alone)", async () => {
      const lines = chain.map(entryLine);
      lines[3] = { ...lines[3], actorId: "someone-else", details: { size: 1 } };
      const result = await verify(exportFile([...lines, ...checkpoints.map(checkpointLine)]));
      expect(result.code).toBe(1);
      expect(result.out).toBe(`TAMPERED: EDITED at sequence 4, entry ${chain[3]!.id}: entry ${chain[3]!.id} at sequence 4 was edited in the export: its actorId, details are not what its canonical form (which the hash covers) says`);
    });

    it("a field edited in the canonical text", async () => {
      const edited = [...chain];
      edited[5] = { ...chain[5]!, canonical: canonicalText({ ...fieldsOf(6), actorId: "someone-else" }) };
      const lines = edited.map(entryLine);
      const result = await verify(exportFile([...lines, ...checkpoints.map(checkpointLine)]));
      expect(result.code).toBe(1);
      expect(result.out).toMatch(new RegExp(`^TAMPERED: EDITED at sequence 6, entry ${chain[5]!.id}: .*no longer hash`));
    });

    it("a line removed", async () => {
      const result = await verify(exportOf([...chain.slice(0, 2), ...chain.slice(3)]));
      expect(result.code).toBe(1);
      expect(result.out).toMatch(new RegExp(`^TAMPERED: REMOVED at sequence 3, entry ${chain[3]!.id}: entry 3 is missing`));
    });

    it("the first lines removed", async () => {
      expect((await verify(exportOf(chain.slice(2)))).out).toMatch(/^TAMPERED: REMOVED at sequence 1, /);
    });

    it("a line inserted without a chain link", async () => {
      const lines = chain.map(entryLine);
      lines.splice(5, 0, unsealedLine(fieldsOf(99)));
      const result = await verify(exportFile([...lines, ...checkpoints.map(checkpointLine)]));
      expect(result.code).toBe(1);
      expect(result.out).toMatch(new RegExp(`^TAMPERED: INSERTED at sequence 6, entry ${fieldsOf(99).id}: `));
    });

    it("a line inserted with a correct link, the later ones renumbered", async () => {
      const forged = sealed(fieldsOf(99).id, 6, chain[4]!.hash, canonicalText(fieldsOf(99)));
      const result = await verify(exportOf([...chain.slice(0, 5), forged, ...chain.slice(5).map((e) => ({ ...e, sequence: e.sequence! + 1 }))], []));
      expect(result.code).toBe(1);
      expect(result.out).toMatch(new RegExp(`^TAMPERED: INSERTED at sequence 6, entry ${forged.id}: `));
    });

    it("a line inserted and the chain after it rehashed, caught by the checkpoint", async () => {
      const forged = { ...chain[0]!, id: fieldsOf(99).id, canonical: canonicalText(fieldsOf(99)) };
      const rewritten = reseal([...chain.slice(0, 5), forged, ...chain.slice(5)], 5);
      const result = await verify(exportOf(rewritten, [checkpointAt(chain[7]!, key)]));
      expect(result.code).toBe(1);
      expect(result.out).toMatch(new RegExp(`^TAMPERED: CHECKPOINT_MISMATCH at sequence 8, entry ${chain[6]!.id}: `));
    });

    it("an entry of another tenant", async () => {
      const other = chainOf(3, "another-tenant");
      const forged = sealed(other[2]!.id, 11, chain[9]!.hash, other[2]!.canonical);
      const result = await verify(exportOf([...chain, forged]));
      expect(result.out).toMatch(new RegExp(`^TAMPERED: INSERTED at sequence 11, entry ${forged.id}: .*belongs to tenant another-tenant`));
    });

    it("two lines swapped", async () => {
      const result = await verify(exportOf([...chain.slice(0, 6), chain[7]!, chain[6]!, ...chain.slice(8)]));
      expect(result.code).toBe(1);
      expect(result.out).toMatch(new RegExp(`^TAMPERED: REORDERED at sequence 8, entry ${chain[7]!.id}: .*belongs after entry ${chain[6]!.id}`));
    });

    it("the tail cut off before a checkpoint", async () => {
      const result = await verify(exportOf(chain.slice(0, 6)));
      expect(result.code).toBe(1);
      expect(result.out).toBe("TAMPERED: TRUNCATED at sequence 7: the chain ends at sequence 6 but a checkpoint covers it up to 8: entries 7 to 8 were cut off");
    });

    it("a checkpoint whose signature does not verify", async () => {
      const lines = [...chain.map(entryLine), ...checkpoints.map(checkpointLine)];
      const last = lines.at(-1)!.checkpoint as Line;
      last.hash = chain[6]!.hash;
      const result = await verify(exportFile(lines));
      expect(result.code).toBe(1);
      expect(result.out).toMatch(/^TAMPERED: BAD_SIGNATURE at sequence 8: checkpoint at sequence 8 has a signature that key "key-2026" does not verify$/);
    });

    it("a checkpoint signed by a key that is not given", async () => {
      const result = await verify(exportOf(chain, [checkpointAt(chain[3]!, signingKey("key-stranger"))]));
      expect(result.code).toBe(1);
      expect(result.out).toMatch(/^TAMPERED: BAD_SIGNATURE at sequence 4: .*"key-stranger", which is not among the keys given$/);
    });
  });

  describe("refuses what it cannot verify", () => {
    it("a malformed line exits 2 with its number", async () => {
      const raw = [...chain.slice(0, 3).map((e) => JSON.stringify(entryLine(e))), "{not json", JSON.stringify(entryLine(chain[3]!))].join("\n");
      const result = await verify(exportFile([], raw));
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/MALFORMED: line 4: not JSON/);
    });

    it("a line with a field of the wrong type, or a broken checkpoint line, exits 2", async () => {
      const lines = chain.map(entryLine);
      lines[1] = { ...lines[1], chain: { ...(lines[1]!.chain as Line), sequence: "two" } };
      expect((await verify(exportFile(lines))).err).toMatch(/MALFORMED: line 2: chain.sequence: not a sequence number/);
      const broken = [...chain.map(entryLine), { checkpoint: { ...(checkpointLine(checkpoints[0]!).checkpoint as Line), signedAt: "yesterday" } }];
      const result = await verify(exportFile(broken));
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/MALFORMED: line 11: signedAt: not a time/);
    });

    it("an export that ended with an error exits 2", async () => {
      const result = await verify(exportFile([...chain.slice(0, 3).map(entryLine), { error: { code: "unavailable", message: "database went away" } }]));
      expect(result.code).toBe(2);
      expect(result.err).toContain("line 4: the export ended with an error");
    });

    it("a missing file, a bad --key and a key that is not Ed25519 are command-line mistakes", async () => {
      expect((await verify(file("nothing-here.ndjson"))).code).toBe(2);
      const exported = exportOf(chain);
      expect((await verify(exported, "--key", "no-equals-sign")).err).toContain("expected KEYID=PATH");
      writeFileSync(file("rsa.pem"), (await import("node:crypto")).generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({ type: "spki", format: "pem" }));
      const rsa = await verify(exported, "--key", `key-2026=${file("rsa.pem")}`);
      expect(rsa.code).toBe(2);
      expect(rsa.err).toContain("an rsa key; checkpoints are signed with Ed25519");
    });

    it("verify without a file is a command-line mistake, as is a file for export", async () => {
      const stdout = new PassThrough();
      let err = "";
      const io = { env: {}, stdout, stderr: { isTTY: false, write: (text: string) => void (err += text) } };
      expect(await runCli(["audit", "verify"], io)).toBe(2);
      expect(err).toContain("audit verify FILE");
      expect(await runCli(["audit", "export", "file.ndjson"], io)).toBe(2);
    });
  });
});
