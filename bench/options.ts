/** Benchmark sizes, read once from the environment (documented at the top of bench/run.ts). */
export interface BenchOptions {
  initiateCalls: number;
  concurrency: number;
  throughputSeconds: number;
  putRuns: number;
  pngRuns: number;
  pdfRuns: number;
  csvMb: number;
  csvRuns: number;
  resolveSeconds: number;
  customers: number;
  filterRuns: number;
  auditEntries: number;
  auditRuns: number;
  /** audit-chain: sealed entries of one tenant exported and verified. */
  chainEntries: number;
  /** audit-chain: existing entries migration 0012 chains. */
  chainBackfillEntries: number;
  /** audit-chain: length of each chain-on and chain-off turn of inserts and of uploads (s), and rounds of them. */
  chainSeconds: number;
  chainUploadSeconds: number;
  chainRounds: number;
  /** audit-chain: rounds of insert turns; many short turns, because a shared disk moves a commit's flush from one turn to the next. */
  chainInsertRounds: number;
  /** "seed": rows inserted, workflows started as a retention change; "flow": the full upload flow. */
  timerMode: "seed" | "flow";
  timerObjects: number;
  /** Uploads of the load group. */
  loadUploads: number;
  /** uploads-peers: length of each engine's turn in a round (s). */
  peerSeconds: number;
  /** uploads-peers: passes over the balanced turn orders per file size (bench/balanced-order.ts). */
  peerRounds: number;
  /** uploads-peers: sequential uploads per engine for the complete-to-READY latency. */
  peerSequential: number;
  /** uploads-peers: length of each turn of the saturation search (s). */
  peerSweepSeconds: number;
  /** uploads-peers: processes the engines' clients are spread over. */
  peerClientProcesses: number;
  /** multipart: timed 200 MiB uploads of each client (ours, lib-storage), alternating. */
  multipartRuns: number;
  /** Flow mode only: RETENTION_IMPORT_ARTIFACT_SECONDS of the stack (seed mode sets deadlines itself). */
  timerRetentionSeconds: number;
  /** Group names to run; empty runs all. */
  only: string[];
}

export function readOptions(env: Record<string, string | undefined>): BenchOptions {
  const int = (name: string, fallback: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name}: must be a whole number ≥ 1, got "${raw}"`);
    return Number(raw);
  };
  const timerMode = (env.BENCH_TIMER_MODE?.trim() || "seed") as BenchOptions["timerMode"];
  if (timerMode !== "seed" && timerMode !== "flow") throw new Error(`BENCH_TIMER_MODE: "seed" or "flow", got "${timerMode}"`);
  return {
    initiateCalls: int("BENCH_INITIATE_CALLS", 300),
    concurrency: int("BENCH_CONCURRENCY", 16),
    throughputSeconds: int("BENCH_THROUGHPUT_SECONDS", 5),
    putRuns: int("BENCH_PUT_RUNS", 20),
    pngRuns: int("BENCH_PNG_RUNS", 20),
    pdfRuns: int("BENCH_PDF_RUNS", 3),
    csvMb: int("BENCH_CSV_MB", 50),
    csvRuns: int("BENCH_CSV_RUNS", 3),
    resolveSeconds: int("BENCH_RESOLVE_SECONDS", 2),
    customers: int("BENCH_CUSTOMERS", 200_000),
    filterRuns: int("BENCH_FILTER_RUNS", 50),
    auditEntries: int("BENCH_AUDIT_ENTRIES", 2_000_000),
    auditRuns: int("BENCH_AUDIT_RUNS", 30),
    chainEntries: int("BENCH_CHAIN_ENTRIES", 1_000_000),
    chainBackfillEntries: int("BENCH_CHAIN_BACKFILL_ENTRIES", 200_000),
    chainSeconds: int("BENCH_CHAIN_SECONDS", 2),
    chainUploadSeconds: int("BENCH_CHAIN_UPLOAD_SECONDS", 15),
    chainRounds: int("BENCH_CHAIN_ROUNDS", 5),
    chainInsertRounds: int("BENCH_CHAIN_INSERT_ROUNDS", 15),
    timerMode,
    timerObjects: int("BENCH_TIMER_OBJECTS", timerMode === "seed" ? 1_500 : 300),
    loadUploads: int("BENCH_LOAD_UPLOADS", 1_000),
    peerSeconds: int("BENCH_PEER_SECONDS", 5),
    peerRounds: int("BENCH_PEER_ROUNDS", 1),
    peerSequential: int("BENCH_PEER_SEQUENTIAL", 30),
    peerSweepSeconds: int("BENCH_PEER_SWEEP_SECONDS", 3),
    peerClientProcesses: int("BENCH_PEER_CLIENT_PROCESSES", 4),
    multipartRuns: int("BENCH_MULTIPART_RUNS", 3),
    timerRetentionSeconds: int("BENCH_TIMER_RETENTION_SECONDS", 20),
    only: (env.BENCH_ONLY ?? "").split(",").map((s) => s.trim()).filter(Boolean),
  };
}
