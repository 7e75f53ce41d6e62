import { defineConfig } from "vitest/config";

/**
 * The Connect conformance suite (test/conformance), run on its own between the unit and the
 * integration tests (`npm run test:conformance`, part of `npm test`): the runner allows each server it starts 10 s to
 * answer, which a server compiling its TypeScript on a machine busy with the other tests can miss.
 */
export default defineConfig({
  test: {
    name: "conformance",
    include: ["test/conformance/**/*.test.ts"],
    environment: "node",
    // The runner starts its own servers (test/conformance/server.ts): no stack needed.
    testTimeout: 300_000,
  },
});
