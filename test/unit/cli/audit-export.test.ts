/**
 * `audit export` writes what `audit verify` reads: against an API that streams a chain and its
 * checkpoints (a Connect server in this process, answering as the real export does), the NDJSON
 * holds each entry with its link and then the checkpoints, and verifies with the keys the API
 * lists; the CSV carries the sequence and hash.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditService } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import { AuditAction, AuditCheckpointSchema, AuditEntrySchema, ObjectClass } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { runCli } from "../../../src/cli/run-cli.js";
import { parseCanonical } from "../../../src/domain/audit/chain/canonical-entry.js";
import type { ChainedEntry, Checkpoint } from "../../../src/domain/audit/chain/chain-link.js";
import { checkpointPayload } from "../../../src/domain/audit/chain/checkpoint-payload.js";
import { chainOf, checkpointAt, signingKey } from "../audit/chain-fixtures.js";
import { auditEntryMessageOf } from "./audit-entry-message.js";


const checkpointMessage = (checkpoint: Checkpoint) =>
  create(AuditCheckpointSchema, {
    ...checkpoint,
    sequence: BigInt(checkpoint.sequence),
    signedAt: timestampFromDate(checkpoint.signedAt),
    payload: checkpointPayload(checkpoint.tenantId, checkpoint.sequence, checkpoint.hash, checkpoint.signedAt),
  });

describe("npm run cli -- audit export, then audit verify", () => {
  const key = signingKey("key-2026");
  const chain = chainOf(7);
  const checkpoints = [checkpointAt(chain[2]!, key), checkpointAt(chain[5]!, key)];
  let server: Server;
  let api: string;
  let dir: string;
  let keyListings = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "audit-export-"));
    server = createServer(connectNodeAdapter({
      routes: (router) => router.service(AuditService, {
        async *exportAuditEntries() {
          for (const link of chain) yield { auditEntry: auditEntryMessageOf(link) };
          for (const checkpoint of checkpoints) yield { checkpoint: checkpointMessage(checkpoint) };
        },
        async listAuditSigningKeys() {
          keyListings += 1;
          return { keys: [{ keyId: key.keyId, algorithm: "Ed25519", publicKeyPem: key.publicKey.export({ type: "spki", format: "pem" }) as string, current: true }] };
        },
      }),
    }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(...args: string[]) {
    const stdout = new PassThrough();
    let out = "";
    stdout.on("data", (chunk) => (out += chunk));
    let err = "";
    const code = await runCli([...args, "--api", api], { env: {}, stdout, stderr: { isTTY: false, write: (text) => void (err += text) } });
    return { code, out, err };
  }

  it("writes the entries with their links, then one line per checkpoint, and verifies with the keys the API lists", async () => {
    const exported = await cli("audit", "export", "--out", path.join(dir, "audit.ndjson"));
    expect(exported.code, exported.err).toBe(0);
    expect(exported.err).toMatch(/audit export: 7 entries up to .* \(done\)/);
    const lines = readFileSync(path.join(dir, "audit.ndjson"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(9);
    expect(lines[0]).toMatchObject({ id: chain[0]!.id, chain: { sequence: "1", previousHash: "0".repeat(64), hash: chain[0]!.hash, canonical: chain[0]!.canonical } });
    expect(lines.slice(7)).toEqual(checkpoints.map((c) => ({ checkpoint: expect.objectContaining({ sequence: String(c.sequence), hash: c.hash, keyId: "key-2026", signature: c.signature }) })));

    const verified = await cli("audit", "verify", path.join(dir, "audit.ndjson"));
    expect(verified.code, verified.err).toBe(0);
    expect(keyListings).toBe(1);
    expect(verified.err).toContain("no --key or --keys given");
    expect(verified.out).toMatch(/^intact: 7 entries of tenant tenant-chain \(sequence 1 to 7\), 2 checkpoints verified, covered up to sequence 6 .*; 1 entry after the last checkpoint is not yet covered\n$/);
  });

  it("prints the verdict as JSON with --json", async () => {
    await cli("audit", "export", "--out", path.join(dir, "json.ndjson"));
    const verified = await cli("audit", "verify", path.join(dir, "json.ndjson"), "--json");
    expect(JSON.parse(verified.out)).toEqual({
      intact: true, tenantId: "tenant-chain", entries: 7, firstSequence: 1, lastSequence: 7, checkpointsVerified: 2, coveredThrough: 6, coveredSignedAt: checkpoints[1]!.signedAt.toISOString(),
    });
  });

  it("writes the sequence and hash as CSV columns, and no checkpoint", async () => {
    const exported = await cli("audit", "export", "--format", "csv");
    expect(exported.code, exported.err).toBe(0);
    const rows = exported.out.trim().split("\r\n");
    expect(rows).toHaveLength(8);
    expect(rows[0]).toMatch(/,"details","chain_sequence","chain_hash"$/);
    expect(rows[3]).toMatch(new RegExp(`,"3","${chain[2]!.hash}"$`));
  });
});
