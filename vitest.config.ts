import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/support/longest-first.js";

/** @files-and-fields/client from its TypeScript sources, as tsc, tsx and the bundles resolve it (docs/clients.md). */
const resolve = { conditions: ["source", "node", "development|production"] };

/**
 * The integration files that need the shared stack to themselves, one after the other once the
 * others are done: they stop or kill one of its processes, read the API server's counters of all
 * tenants, act on every tenant at once, or load the machine on purpose.
 */
const ALONE = [
  // Kill, pause or stop the stack's worker, API server, clamd, MinIO, PostgreSQL or Temporal.
  "chaos", "faults", "health-per-service", "malware-lifecycle", "malware-scanner", "retention-sweep", "webhook-resilience", "webhook-dispatch-wakeups",
  // Count the API server's requests or aborts by code: another file's calls would be counted too.
  "deadlines", "metrics", "multipart-uploads", "stream-errors",
  // Sign every tenant's trail (a checkpoint), re-scan every object, hold the index builder, own the schedules.
  "audit-checkpoints", "malware-rescan", "custom-field-indexes", "schedule-owner",
  // Load the shared worker, or cut off clients slower than a few seconds.
  "load", "slow-clients",
].map((name) => `test/integration/${name}.test.ts`);

const integration = {
  include: ["test/integration/**/*.test.ts"],
  environment: "node",
  // One stack (PostgreSQL, MinIO, Temporal, API server, worker) serves both projects' files.
  globalSetup: ["test/integration/global-setup.ts"],
  // A worker imports the support code and the clients once, not once per file (seconds of CPU per
  // file); the files keep no state in shared modules, each builds its own clients and closes them.
  isolate: false,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        resolve,
        ssr: { resolve },
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          // A real redis-server for the Redis adapter's tests (never skipped).
          globalSetup: ["test/unit/global-setup.ts"],
          // Unit tests hold no module state between files (each builds its own fakes), so a worker
          // imports the code under test once instead of once per file: most of the suite's time
          // was loading the same modules (mathjs above all) again for every file.
          isolate: false,
          // Two at a time: the unit tests are CPU work, and the machine has at least two cores.
          maxWorkers: 2,
        },
      },
      {
        resolve,
        ssr: { resolve },
        test: {
          ...integration,
          name: "integration",
          exclude: ALONE,
          // Two files at a time: most of an integration test is waiting on a timer, a poll or the
          // stack, and the files keep apart by tenant (and by their own API server and worker, or
          // task queue, where they start one). Three took as long on two cores (measured).
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
        },
      },
      {
        resolve,
        ssr: { resolve },
        test: {
          ...integration,
          name: "integration-alone",
          include: ALONE,
          sequence: { groupOrder: 2 },
          fileParallelism: false,
        },
      },
    ],
  },
});
