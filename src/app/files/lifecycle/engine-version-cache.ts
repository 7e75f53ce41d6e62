import type { EngineVersion } from "../../../domain/files/malware/malware-verdict.js";
import type { MalwareScanner } from "./port.js";

/**
 * The engine's version for the scan result, asked at most once per `maxAgeMs` (a round trip to the
 * engine per upload would be a third of its work for a small file). A result may so name the
 * database of up to `maxAgeMs` before a reload: the re-scan on a database change compares versions
 * later than that. A failed question is not kept. It is asked without any one scan's signal: the
 * answer is shared, and one scan's cancellation must not fail the others'.
 */
export function cachedEngineVersion(scanner: MalwareScanner, maxAgeMs: number, now: () => number): () => Promise<EngineVersion> {
  let cached: { at: number; version: Promise<EngineVersion> } | undefined;
  return () => {
    if (!cached || now() - cached.at >= maxAgeMs) {
      const version = scanner.version();
      const entry = { at: now(), version };
      cached = entry;
      version.catch(() => {
        if (cached === entry) cached = undefined;
      });
    }
    return cached.version;
  };
}
