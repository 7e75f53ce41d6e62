import { defineConfig } from "vitest/config";

/** @files-and-fields/client from its TypeScript sources, as tsc, tsx and the bundles resolve it (docs/clients.md). */
const resolve = { conditions: ["source", "node", "development|production"] };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        ssr: { resolve },
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          // A real redis-server for the Redis adapter's tests (never skipped).
          globalSetup: ["test/unit/global-setup.ts"],
          // Unit tests hold no module state between files (each builds its own fakes), so a worker
          // imports the code under test once instead of once per file: most of the suite's time
          // was loading the same modules (mathjs above all) again for every file.
          isolate: false,
        },
      },
      {
        resolve,
        ssr: { resolve },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          // One stack (PostgreSQL, MinIO, Temporal, API server, worker) serves every file.
          globalSetup: ["test/integration/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
