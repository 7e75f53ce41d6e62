import type { ByteSource } from "../../../domain/files/checks/byte-source.js";
import { scanFile } from "../../../domain/files/checks/scanner.js";
import { malwareCheck, malwareRecord } from "../../../domain/files/malware/malware-check.js";
import { classRules } from "../../../domain/files/object-classes.js";
import type { ObjectRecord, ScanResultView } from "../../../domain/files/stored-object.js";
import { teeBytes, type TeeBranch } from "./byte-tee.js";
import type { LifecyclePorts } from "./deps.js";
import { scanCheckpoint, type ScanAttempt } from "./scan-checkpoint.js";

export type ScanFindings = Omit<ScanResultView, "finishedAt">;

/** The engine gave no verdict (unreachable, timed out, answered nonsense): the file must wait. */
export interface EngineFailure {
  engineFailed: true;
  error: unknown;
}

export interface ScanRunOptions {
  /** The activity's attempt: heartbeats, checkpoints and its cancellation. Absent inside complete. */
  attempt?: ScanAttempt;
  /** Give up on the engine after this long (complete answers a waiting caller). */
  engineTimeoutMs?: number;
}

/**
 * The content checks and the malware engine over one read of the object: the stream the checks
 * take is teed to the engine (byte-tee.ts), so each byte leaves storage once; the source serves
 * the checks' reads of a head or a tail from that stream where it can (object-bytes.ts). The result
 * passes only when both passed.
 *
 * Storage errors and the attempt's own cancellation propagate (Temporal retries, or the attempt
 * is over). The engine's failure is answered, never thrown, so that each caller decides: the
 * scan activity fails its attempt (retried with backoff), complete leaves the file SCANNING.
 */
export async function scanObjectBytes(ports: LifecyclePorts, record: ObjectRecord, source: ByteSource, options: ScanRunOptions = {}): Promise<ScanFindings | EngineFailure> {
  const { attempt } = options;
  const checkOptions = { contentPolicy: classRules(record.objectClass).contentPolicy, officeLimits: ports.officeLimits, pdfLimits: ports.pdfLimits, svgLimits: ports.svgLimits };
  const engine = ports.malware;
  if (!engine) return scanFile(record.contentType, source, { ...checkOptions, ...checkpointed(attempt, attempt?.signal) });

  const tee = teeBytes(source.stream(), 2);
  const [forChecks, forEngine] = tee.branches as [TeeBranch, TeeBranch];
  // Either side failing ends the other: the attempt's result is lost anyway.
  const stop = new AbortController();
  const signals = [stop.signal, ...(attempt?.signal ? [attempt.signal] : [])];
  const engineSignal = AbortSignal.any(options.engineTimeoutMs ? [...signals, AbortSignal.timeout(options.engineTimeoutMs)] : signals);
  const checksSignal = AbortSignal.any(signals);

  const verdict = Promise.all([
    engine.scanner.scan(reporting(forEngine, () => attempt?.heartbeat(tee.bytesRead)), { signal: engineSignal }),
    engine.version(),
  ]).finally(() => forEngine.detach());
  const checks = scanFile(record.contentType, sharing(source, forChecks), { ...checkOptions, ...checkpointed(attempt, checksSignal) }).finally(() => forChecks.detach());
  verdict.catch((error: unknown) => stop.abort(error));
  checks.catch((error: unknown) => stop.abort(error));
  const [found, outcome] = await Promise.allSettled([verdict, checks]);

  attempt?.signal?.throwIfAborted();
  if (tee.failure) throw tee.failure.error;
  if (found.status === "rejected") return { engineFailed: true, error: found.reason };
  if (outcome.status === "rejected") throw outcome.reason;
  const malware = malwareRecord(...found.value);
  const check = malwareCheck(malware);
  return {
    passed: outcome.value.passed && check.passed,
    checks: [...outcome.value.checks, check],
    // The checks count what reached them; the engine's branch read the rest of the stream.
    bytesRead: outcome.value.bytesRead + tee.bytesRead - forChecks.delivered,
    malware,
  };
}

export function isEngineFailure(result: ScanFindings | EngineFailure): result is EngineFailure {
  return "engineFailed" in result;
}

function checkpointed(attempt: ScanAttempt | undefined, signal: AbortSignal | undefined) {
  if (!attempt) return {};
  let bytesRead = 0;
  return {
    onProgress: (total: number) => {
      bytesRead = total;
      attempt.heartbeat(total);
    },
    checkpoint: scanCheckpoint({ heartbeat: attempt.heartbeat, signal }, () => bytesRead),
  };
}

/** The checks' source: their first stream is the shared one; another (none does so today) reads again. */
function sharing(source: ByteSource, shared: TeeBranch): ByteSource {
  let taken = false;
  return {
    size: source.size,
    read: (offset, length) => source.read(offset, length),
    stream: () => {
      if (taken) return source.stream();
      taken = true;
      return shared;
    },
  };
}

/** The engine's branch, heartbeating as it goes: after the checks are done, only it reads. */
async function* reporting(branch: TeeBranch, progress: () => void): AsyncIterable<Uint8Array> {
  try {
    for await (const chunk of branch) {
      progress();
      yield chunk;
    }
  } finally {
    branch.detach();
  }
}
