/**
 * `AUDIT_HASH_CHAIN`: `on` (the default) or `off`. Off, the API and worker database sessions set
 * `files.audit_chain = off`, and the seal trigger (migration 0012) leaves their entries unchained.
 * It exists only so that the benchmark can measure the chain's cost against the same stack
 * without it; a trail with unsealed rows fails verification, so production never turns it off.
 */
import { ConfigError } from "./config-error.js";

export function parseAuditHashChain(env: Readonly<Record<string, string | undefined>>, developmentMode: boolean): boolean {
  const raw = env.AUDIT_HASH_CHAIN?.trim().toLowerCase() || "on";
  if (raw !== "on" && raw !== "off") throw new ConfigError("AUDIT_HASH_CHAIN", `must be on or off, got "${raw}"`);
  if (raw === "off" && !developmentMode) throw new ConfigError("AUDIT_HASH_CHAIN", "off is refused without DEVELOPMENT_MODE=true (it is a benchmark's switch)");
  return raw === "on";
}
