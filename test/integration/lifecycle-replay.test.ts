/**
 * Every path of the object workflow through the real stack: each ends as it must, and its
 * history replays against the workflow code (RECORD_HISTORIES=1 writes them to
 * test/fixtures/histories, which the unit suite replays on every run).
 */
import { describe, expect, it } from "vitest";
import { apiUrl, tokenFor, uniqueTenant } from "../support/clients.js";
import { replayAndRecord } from "../support/history-recording.js";
import { awaitEnds, FilesApi, LIFECYCLE_PATHS, type ExpectedEnd } from "../support/lifecycle-paths.js";
import { withTemporal } from "../support/stack-access.js";

describe("every path of the object workflow", () => {
  it("ends as it must, with an exact audit trail, and its history replays", { timeout: 240_000 }, async () => {
    const tenant = uniqueTenant("paths");
    const api = new FilesApi(apiUrl(), await tokenFor(tenant), tenant);
    const runs = await Promise.all(LIFECYCLE_PATHS.map(async (path) => ({ path: path.name, ends: await path.run(api) })));
    const ends: ExpectedEnd[] = runs.flatMap((r) => r.ends);
    // The abandoned upload's deadline is RETENTION_TEMP_UPLOAD_SECONDS (30 s in tests).
    expect(await awaitEnds(tenant, ends, 120_000)).toEqual([]);
    const objects = runs.flatMap((r) => r.ends.map((end, i) => ({ name: r.ends.length > 1 ? `${r.path}-${i + 1}` : r.path, id: end.id })));
    await withTemporal((client) => replayAndRecord(client, tenant, objects));
  });
});
