import { describe, expect, it } from "vitest";
import { cachedEngineVersion } from "../../../../src/app/files/lifecycle/engine-version-cache.js";
import type { MalwareScanner } from "../../../../src/app/files/lifecycle/port.js";
import { MalwareScannerError } from "../../../../src/domain/files/malware/malware-verdict.js";

/** A scanner whose VERSION answers come from a list, counted. */
function versions(...answers: (number | "down")[]) {
  const asked = { count: 0 };
  const scanner = {
    version: async () => {
      const answer = answers[asked.count++];
      if (answer === "down") throw new MalwareScannerError("unreachable", "clamd down");
      return { engine: "ClamAV", engineVersion: "1.4.3", databaseVersion: answer };
    },
  } as MalwareScanner;
  return { scanner, asked };
}

describe("cachedEngineVersion", () => {
  it("asks the engine once per period, then again", async () => {
    let now = 0;
    const { scanner, asked } = versions(1, 2);
    const version = cachedEngineVersion(scanner, 60_000, () => now);
    expect((await version()).databaseVersion).toBe(1);
    now = 59_999;
    expect((await version()).databaseVersion).toBe(1);
    now = 60_000;
    expect((await version()).databaseVersion).toBe(2);
    expect(asked.count).toBe(2);
  });

  it("keeps no failure: the next call asks again", async () => {
    const { scanner, asked } = versions("down", 3);
    const version = cachedEngineVersion(scanner, 60_000, () => 0);
    await expect(version()).rejects.toBeInstanceOf(MalwareScannerError);
    expect((await version()).databaseVersion).toBe(3);
    expect(asked.count).toBe(2);
  });
});
