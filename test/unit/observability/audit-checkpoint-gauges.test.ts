import { describe, expect, it } from "vitest";
import { createMetrics, type StoreSnapshot } from "../../../src/observability/metrics.js";

const emptySnapshot: StoreSnapshot = { objectsByStatus: [], scansByResult: [], failuresByCheck: [], scanSeconds: [], webhookDeliveries: [], scansOverdue: 0 };

describe("audit checkpoint gauges", () => {
  it("show each tenant's last verified checkpoint and the entries past it; a tenant never signed only the latter", async () => {
    const metrics = createMetrics({
      readStore: async () => emptySnapshot,
      auditCheckpoints: async () => [
        { tenant: "tenant-a", headSequence: 42, checkpoint: { sequence: 40, signedAt: new Date("2026-03-01T12:00:00.500Z"), ownEntryNext: false } },
        { tenant: "tenant-b", headSequence: 7 },
      ],
    });
    const page = await metrics.registry.metrics();
    expect(page).toContain('audit_last_checkpoint_sequence{tenant="tenant-a"} 40');
    expect(page).toContain('audit_last_checkpoint_timestamp_seconds{tenant="tenant-a"} 1772366400.5');
    expect(page).toContain('audit_unsigned_entries{tenant="tenant-a"} 2');
    expect(page).toContain('audit_unsigned_entries{tenant="tenant-b"} 7');
    expect(page).not.toContain('audit_last_checkpoint_sequence{tenant="tenant-b"}');
  });

  it("do not count the checkpoint's own entry right after it: back to 0 after each signing", async () => {
    const signedAt = new Date("2026-03-01T12:00:00.500Z");
    const metrics = createMetrics({
      readStore: async () => emptySnapshot,
      auditCheckpoints: async () => [
        { tenant: "just-signed", headSequence: 41, checkpoint: { sequence: 40, signedAt, ownEntryNext: true } },
        { tenant: "written-since", headSequence: 44, checkpoint: { sequence: 40, signedAt, ownEntryNext: true } },
      ],
    });
    const page = await metrics.registry.metrics();
    expect(page).toContain('audit_unsigned_entries{tenant="just-signed"} 0');
    expect(page).toContain('audit_unsigned_entries{tenant="written-since"} 3');
  });

  it("are left out without a source, and empty when the source fails", async () => {
    expect(await createMetrics({ readStore: async () => emptySnapshot }).registry.metrics()).not.toContain("audit_unsigned_entries");
    const errors: unknown[] = [];
    const failing = createMetrics({ readStore: async () => emptySnapshot, auditCheckpoints: async () => Promise.reject(new Error("db down")), onCollectError: (e) => errors.push(e) });
    expect(await failing.registry.metrics()).not.toContain("audit_unsigned_entries{");
    expect(errors.length).toBeGreaterThan(0);
  });
});
