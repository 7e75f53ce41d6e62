import { describe, expect, it } from "vitest";
import { createMetrics, type StoreSnapshot } from "../../../src/observability/metrics.js";

const emptySnapshot: StoreSnapshot = { objectsByStatus: [], scansByResult: [], failuresByCheck: [], scanSeconds: [], webhookDeliveries: [], scansOverdue: 0 };

describe("audit_entries gauge", () => {
  it("shows the entries of each tenant, counted at most once per audit cache period", async () => {
    let now = 0;
    let counts = 0;
    const metrics = createMetrics({
      readStore: async () => emptySnapshot,
      auditEntriesByTenant: async () => {
        counts++;
        return new Map([
          ["tenant-a", 12],
          ["tenant-b", 3 + counts],
        ]);
      },
      auditCacheMs: 60_000,
      now: () => now,
    });
    const page = () => metrics.registry.metrics();
    expect(await page()).toContain('audit_entries{tenant="tenant-a"} 12');
    expect(await page()).toContain('audit_entries{tenant="tenant-b"} 4');
    now = 59_999;
    await page();
    expect(counts).toBe(1);
    now = 60_000;
    expect(await page()).toContain('audit_entries{tenant="tenant-b"} 5');
    expect(counts).toBe(2);
  });
});
