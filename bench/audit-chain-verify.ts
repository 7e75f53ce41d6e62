/**
 * The chain at size: one tenant's N sealed entries (1,000,000 by default), generated in SQL with
 * the seal trigger on, then what reading and checking them costs, in entries per CPU-second:
 *
 * - sealing: the load's time per entry against the same statements with the chain off (every
 *   tenth batch is also inserted into a peer tenant by a chain-off session, so both see the same
 *   table as it grows); a checkpoint is signed every CHECKPOINT_EVERY entries, as the schedule
 *   would have;
 * - export: the export use case (what ExportAuditEntries streams, before encoding) in chain order
 *   against the same use case asked for the same entries in time order (a filtered export);
 * - verification: ChainVerifier with nodeChainCrypto over the links the chain reader returns,
 *   against SHA-256 alone over the same links (the floor of any verification), the batches read
 *   outside the measured CPU; and the VerifyAuditTrail use case, reads included;
 * - the CLI: `audit export` of the tenant through the API into an NDJSON file, then `audit verify
 *   FILE --key` offline, each a process of its own (its CPU read when it is reaped).
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AuditChainReaderStore } from "../src/adapters/postgres/audit-chain-reader.js";
import { PostgresAuditCheckpointStore } from "../src/adapters/postgres/audit-checkpoint-store.js";
import { AuditTrailStore } from "../src/adapters/postgres/audit-trail-store.js";
import { openDatabase } from "../src/adapters/postgres/orm.js";
import { nodeChainCrypto } from "../src/app/audit/chain/chain-crypto.js";
import { linkHash } from "../src/app/audit/chain/link-hash.js";
import { signCheckpoint } from "../src/app/audit/checkpoints/sign-checkpoint.js";
import { exportAuditEntries, type ExportItem } from "../src/app/audit/export-audit-entries.js";
import { verifyAuditTrail } from "../src/app/audit/verify-audit-trail.js";
import type { Config } from "../src/config/config.js";
import type { AuditFilter } from "../src/domain/audit/audit-query.js";
import { ChainVerifier } from "../src/domain/audit/chain/chain-verifier.js";
import { insertGeneratedEntries, LOAD_BATCH } from "./audit-entries.js";
import { cpuDelta, cpuSnapshot, ownCpuMs, reapedChildrenCpuMs } from "./proc-cpu.js";
import { timed } from "./stats.js";
import { progress, tokenFor } from "./support.js";

const CHECKPOINT_EVERY = 100_000;
const OFF_SAMPLE_EVERY = 10;
/** Links per read, as verifyAuditTrail reads them. */
const VERIFY_BATCH = 5000;

/** CPU of the bench process (the API's share when a use case runs in it) and of PostgreSQL. */
export interface Cost {
  entries: number;
  wallMs: number;
  cpuMs: number;
  postgresMs: number;
}

export interface ChainAtSize {
  entries: number;
  /** Entries plus one per checkpoint signed during the load. */
  chainLength: number;
  checkpoints: number;
  seal: { onMsPerEntry: number; offMsPerEntry: number; offEntries: number; loadSeconds: number };
  chainExport: Cost;
  timeExport: Cost;
  verify: { cpuMs: number; checked: number; intact: boolean; checkpointsChecked: number; problem?: string };
  hashOnly: { cpuMs: number };
  useCase: Cost & { intact: boolean; checked: number };
  cli?: { export: Cost & { exitCode: number; bytes: number }; verify: Cost & { exitCode: number; verdict: string }; problem?: string };
}

/** `work` with the bench process's CPU, PostgreSQL's and the wall time around it. */
async function costOf<T>(entries: (value: T) => number, work: () => Promise<T>): Promise<Cost & { value: T }> {
  const cpu = ownCpuMs();
  const before = cpuSnapshot();
  const { ms, value } = await timed(work);
  return { entries: entries(value), wallMs: ms, cpuMs: ownCpuMs() - cpu, postgresMs: cpuDelta(before, cpuSnapshot()).postgres, value };
}

async function countEntries(items: AsyncIterable<ExportItem>): Promise<number> {
  let entries = 0;
  for await (const item of items) if ("entry" in item) entries++;
  return entries;
}

interface Sides {
  on: MikroORM;
  off: MikroORM;
}

/** The tenant's entries, chain on, LOAD_BATCH per statement; a chain-off sample; checkpoints. */
async function load(orms: Sides, config: Config, tenants: { on: string; off: string }, entries: number): Promise<{ seal: ChainAtSize["seal"]; checkpoints: number }> {
  const em = { on: orms.on.em.fork(), off: orms.off.em.fork() };
  const reader = new AuditChainReaderStore(orms.on);
  const store = new PostgresAuditCheckpointStore(orms.on);
  let onMs = 0;
  let offMs = 0;
  let offEntries = 0;
  let checkpoints = 0;
  const started = performance.now();
  for (let from = 1, batch = 0; from <= entries; from += LOAD_BATCH, batch++) {
    const to = Math.min(entries, from + LOAD_BATCH - 1);
    onMs += (await timed(() => insertGeneratedEntries(em.on, tenants.on, from, to))).ms;
    if (batch % OFF_SAMPLE_EVERY === 0) {
      offMs += (await timed(() => insertGeneratedEntries(em.off, tenants.off, from, to))).ms;
      offEntries += to - from + 1;
    }
    if (to % CHECKPOINT_EVERY === 0 || to === entries) {
      const head = (await reader.head(tenants.on))!;
      await store.insert(signCheckpoint(config.audit.signingKeys.current, tenants.on, head.sequence, head.hash, new Date()));
      checkpoints++;
      progress(`audit-chain: ${to.toLocaleString("en-US")} of ${entries.toLocaleString("en-US")} entries sealed (${(onMs / to).toFixed(3)} ms each; chain off ${(offMs / offEntries).toFixed(3)} ms)`);
    }
  }
  const seal = { onMsPerEntry: onMs / entries, offMsPerEntry: offMs / offEntries, offEntries, loadSeconds: (performance.now() - started) / 1000 };
  return { seal, checkpoints };
}

const sum = (a: Cost, b: Cost): Cost => ({ entries: a.entries + b.entries, wallMs: a.wallMs + b.wallMs, cpuMs: a.cpuMs + b.cpuMs, postgresMs: a.postgresMs + b.postgresMs });

/**
 * The export in chain order and in time order, twice each in the order chain, time, time, chain:
 * the sums cancel a warm-up or a drift of the machine that a single pass of each would charge to
 * whichever ran first.
 */
async function exportsAbba(chainOrder: () => AsyncIterable<ExportItem>, timeOrder: () => AsyncIterable<ExportItem>): Promise<{ chainExport: Cost; timeExport: Cost }> {
  const pass = async (order: string, items: () => AsyncIterable<ExportItem>) => {
    progress(`audit-chain: export in ${order} order`);
    return strip(await costOf((n: number) => n, () => countEntries(items())));
  };
  const chainFirst = await pass("chain", chainOrder);
  const timeFirst = await pass("time", timeOrder);
  const timeSecond = await pass("time", timeOrder);
  const chainSecond = await pass("chain", chainOrder);
  return { chainExport: sum(chainFirst, chainSecond), timeExport: sum(timeFirst, timeSecond) };
}

/** ChainVerifier over the reader's links, and SHA-256 alone over the same links; reads not counted. */
async function verifyInProcess(orm: MikroORM, config: Config, tenant: string, entries: number) {
  const reader = new AuditChainReaderStore(orm);
  const checkpoints = await new PostgresAuditCheckpointStore(orm).from(tenant, 1);
  let verifyCpu = 0;
  let hashCpu = 0;
  let hashes = 0;
  const verifier = new ChainVerifier(checkpoints, nodeChainCrypto(config.audit.signingKeys.ring));
  for (let after = 0; after < entries; ) {
    const links = await reader.links(tenant, after, entries, VERIFY_BATCH);
    if (links.length === 0) break;
    let cpu = ownCpuMs();
    for (const link of links) verifier.push(link);
    verifyCpu += ownCpuMs() - cpu;
    cpu = ownCpuMs();
    for (const link of links) if (linkHash(link.previousHash, link.canonical).length === 64) hashes++;
    hashCpu += ownCpuMs() - cpu;
    after = links.at(-1)!.sequence!;
  }
  const cpu = ownCpuMs();
  const report = verifier.finish();
  verifyCpu += ownCpuMs() - cpu;
  if (hashes !== report.entriesChecked) throw new Error(`hashed ${hashes} links, verified ${report.entriesChecked}`);
  return {
    verify: { cpuMs: verifyCpu, checked: report.entriesChecked, intact: report.intact, checkpointsChecked: report.checkpointsChecked, problem: report.problem?.message },
    hashOnly: { cpuMs: hashCpu },
  };
}

/** The CLI as an operator runs it: its own process, API_URL and TOKEN in its environment. */
function runCli(root: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "src/main/cli.ts", ...args], { cwd: root, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** CPU of the CLI process (read when reaped) and of the API and PostgreSQL while it ran. */
async function cliCost(root: string, args: string[], env: Record<string, string>) {
  const reaped = reapedChildrenCpuMs();
  const before = cpuSnapshot();
  const { ms, value } = await timed(() => runCli(root, args, env));
  const stack = cpuDelta(before, cpuSnapshot());
  return { wallMs: ms, cpuMs: reapedChildrenCpuMs() - reaped, apiMs: stack.api, postgresMs: stack.postgres, run: value };
}

async function viaCli(root: string, apiUrl: string, config: Config, tenant: string, entries: number): Promise<ChainAtSize["cli"]> {
  const dir = mkdtempSync(path.join(root, ".bench-data", "audit-chain-"));
  try {
    const file = path.join(dir, "export.ndjson");
    const key = config.audit.signingKeys.current.keyId;
    const pem = path.join(dir, `${key}.pem`);
    writeFileSync(pem, config.audit.signingKeys.published.find((k) => k.keyId === key)!.publicKeyPem);
    const env = { API_URL: apiUrl, TOKEN: await tokenFor(tenant, "bench-auditor") };
    progress(`audit-chain: npm run cli -- audit export --out FILE (${entries.toLocaleString("en-US")} entries through the API)`);
    const exported = await cliCost(root, ["audit", "export", "--out", file], env);
    const bytes = exported.run.code === 0 ? statSync(file).size : 0;
    progress(`audit-chain: npm run cli -- audit verify FILE --key ${key}=PEM (${(bytes / 1e6).toFixed(0)} MB)`);
    const verified = exported.run.code === 0 ? await cliCost(root, ["audit", "verify", file, "--key", `${key}=${pem}`, "--json"], env) : undefined;
    const problem = exported.run.code !== 0 ? `export exited ${exported.run.code}: ${exported.run.stderr.slice(-300)}` : verified && verified.run.code !== 0 ? `verify exited ${verified.run.code}: ${(verified.run.stdout + verified.run.stderr).slice(-300)}` : undefined;
    return {
      // The API serves the export: its CPU is the server's share, the CLI's the client's.
      export: { entries, wallMs: exported.wallMs, cpuMs: exported.cpuMs + exported.apiMs, postgresMs: exported.postgresMs, exitCode: exported.run.code, bytes },
      verify: { entries, wallMs: verified?.wallMs ?? NaN, cpuMs: verified?.cpuMs ?? NaN, postgresMs: 0, exitCode: verified?.run.code ?? NaN, verdict: verified?.run.stdout.trim().slice(0, 300) ?? "" },
      problem,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureChainAtSize(root: string, apiUrl: string, config: Config, entries: number): Promise<ChainAtSize> {
  // No statement timeout on these sessions: they read a million rows in one go.
  const orms: Sides = { on: await openDatabase(config.databaseUrl, 2), off: await openDatabase(config.databaseUrl, 1, { ...config.database, auditHashChain: false }) };
  const suffix = randomUUID().slice(0, 8);
  const tenants = { on: `bench-chain-size-${suffix}`, off: `bench-chain-size-off-${suffix}` };
  try {
    progress(`audit-chain: sealing ${entries.toLocaleString("en-US")} entries of one tenant, ${LOAD_BATCH} per statement`);
    const { seal, checkpoints } = await load(orms, config, tenants, entries);
    await orms.on.em.fork().execute("vacuum analyze audit_entries");
    // Each checkpoint adds its own entry to the chain (checkpoint-entry.ts): the chain is a little longer.
    const chainLength = (await new AuditChainReaderStore(orms.on).head(tenants.on))!.sequence;
    const deps = { trail: new AuditTrailStore(orms.on), checkpoints: new PostgresAuditCheckpointStore(orms.on) };
    const actor = { tenantId: tenants.on, actorId: "bench-auditor" };
    const everything: AuditFilter = { occurredAfter: new Date("2000-01-01T00:00:00Z") };
    const exports = await exportsAbba(() => exportAuditEntries(deps, actor, {}), () => exportAuditEntries(deps, actor, everything));
    progress("audit-chain: ChainVerifier over the chain reader's links, and SHA-256 alone");
    const inProcess = await verifyInProcess(orms.on, config, tenants.on, chainLength);
    progress("audit-chain: the VerifyAuditTrail use case");
    const verifyDeps = { chain: new AuditChainReaderStore(orms.on), checkpoints: deps.checkpoints, keys: config.audit.signingKeys };
    const useCase = await costOf((r: Awaited<ReturnType<typeof verifyAuditTrail>>) => r.entriesChecked, () => verifyAuditTrail(verifyDeps, tenants.on, { fromSequence: 0, toSequence: 0 }));
    const cli = await viaCli(root, apiUrl, config, tenants.on, chainLength);
    return {
      entries,
      chainLength,
      checkpoints,
      seal,
      ...exports,
      ...inProcess,
      useCase: { ...strip(useCase), intact: useCase.value.intact, checked: useCase.value.entriesChecked },
      cli,
    };
  } finally {
    await Promise.all([orms.on.close(), orms.off.close()]);
  }
}

function strip<T>({ value: _value, ...cost }: Cost & { value: T }): Cost {
  return cost;
}
