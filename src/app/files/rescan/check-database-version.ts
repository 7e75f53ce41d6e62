import { rescanDecision, type RescanDecision } from "../../../domain/files/malware/rescan-decision.js";
import { rescanWindow } from "../../../domain/files/malware/rescan-window.js";
import type { MalwareScanner } from "../lifecycle/port.js";
import type { MalwareRescans, RescanObjects } from "./port.js";

export interface DatabaseWatchDeps {
  scanner: Pick<MalwareScanner, "version">;
  objects: Pick<RescanObjects, "recordDatabase" | "markRescanStarted">;
  rescans: MalwareRescans;
  windowDays: number;
  now(): Date;
}

export interface DatabaseCheck {
  engine: string;
  databaseVersion?: number;
  decision: RescanDecision | "no-database-version";
}

/**
 * Asks the engine for its signature database version, records it, and starts the re-scan when
 * the version is a new one. The workflow is started before the row says so: a crash between the
 * two starts it again, which Temporal answers with the existing workflow (its id is the version's).
 * An engine that does not answer rejects (the caller logs it and asks again at its next check).
 */
export async function checkDatabaseVersion(deps: DatabaseWatchDeps): Promise<DatabaseCheck> {
  const { engine, databaseVersion } = await deps.scanner.version();
  if (databaseVersion === undefined) return { engine, decision: "no-database-version" };
  const now = deps.now();
  const seen = await deps.objects.recordDatabase(engine, databaseVersion, now);
  const decision = rescanDecision(seen, databaseVersion);
  if (decision === "start") {
    await deps.rescans.start({ engine, databaseVersion, window: rescanWindow(now, deps.windowDays) });
    await deps.objects.markRescanStarted(engine, databaseVersion, now);
  }
  return { engine, databaseVersion, decision };
}
