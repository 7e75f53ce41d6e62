import { describe, expect, it } from "vitest";
import { checkDatabaseVersion, type DatabaseWatchDeps } from "../../../../src/app/files/rescan/check-database-version.js";
import type { RescanStart } from "../../../../src/app/files/rescan/port.js";
import type { SeenDatabase } from "../../../../src/domain/files/malware/rescan-decision.js";

/** The table malware_databases and Temporal's one workflow per id, in memory: shared by "workers". */
function world() {
  const rows = new Map<number, SeenDatabase>();
  const workflows = new Set<string>();
  const starts: RescanStart[] = [];
  let version = 7;
  const worker = (failMarkOnce = false): DatabaseWatchDeps => {
    let failMark = failMarkOnce;
    return {
      scanner: { version: async () => ({ engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: version }) },
      objects: {
        recordDatabase: async (_engine, databaseVersion, now) => {
          if (!rows.has(databaseVersion)) rows.set(databaseVersion, { databaseVersion, firstSeenAt: now, rescanStartedAt: null });
          return [...rows.values()].map((row) => ({ ...row }));
        },
        markRescanStarted: async (_engine, databaseVersion, now) => {
          if (failMark) {
            failMark = false;
            throw new Error("database gone");
          }
          const row = rows.get(databaseVersion)!;
          row.rescanStartedAt ??= now;
        },
      },
      rescans: {
        start: async (start) => {
          const id = `malware-rescan-${start.databaseVersion}`;
          if (workflows.has(id)) return "already-started";
          workflows.add(id);
          starts.push(start);
          return "started";
        },
      },
      windowDays: 30,
      now: () => new Date("2026-11-26T08:00:00Z"),
    };
  };
  return { rows, starts, worker, reload: (next: number) => (version = next) };
}

describe("checking the engine's database version", () => {
  it("records the first version and starts nothing; a new one starts its re-scan once, with the window", async () => {
    const w = world();
    const one = w.worker();
    expect((await checkDatabaseVersion(one)).decision).toBe("first-version");
    expect((await checkDatabaseVersion(one)).decision).toBe("first-version");
    w.reload(8);
    expect((await checkDatabaseVersion(one)).decision).toBe("start");
    expect((await checkDatabaseVersion(one)).decision).toBe("already-started");
    expect(w.starts).toEqual([{ engine: "ClamAV", databaseVersion: 8, window: { readySince: "2026-10-27T08:00:00.000Z", readyUntil: "2026-11-26T08:00:00.000Z" } }]);
  });

  it("two workers, or a worker that stopped between start and mark, start one workflow", async () => {
    const w = world();
    await checkDatabaseVersion(w.worker());
    w.reload(8);
    await expect(checkDatabaseVersion(w.worker(true))).rejects.toThrow("database gone");
    expect(w.rows.get(8)!.rescanStartedAt).toBeNull();
    const [a, b] = await Promise.all([checkDatabaseVersion(w.worker()), checkDatabaseVersion(w.worker())]);
    expect([a.decision, b.decision]).toEqual(["start", "start"]);
    expect(w.starts).toHaveLength(1);
    expect(w.rows.get(8)!.rescanStartedAt).not.toBeNull();
    expect((await checkDatabaseVersion(w.worker())).decision).toBe("already-started");
  });

  it("an engine without a database version decides nothing", async () => {
    const w = world();
    const deps = w.worker();
    const result = await checkDatabaseVersion({ ...deps, scanner: { version: async () => ({ engine: "ClamAV", engineVersion: "1.4.3" }) } });
    expect(result).toEqual({ engine: "ClamAV", decision: "no-database-version" });
    expect(w.rows.size).toBe(0);
  });
});
