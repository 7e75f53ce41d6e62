import { describe, expect, it } from "vitest";
import { createMetrics, type StoreSnapshot } from "../../../src/observability/metrics.js";

const emptySnapshot: StoreSnapshot = { objectsByStatus: [], scansByResult: [], failuresByCheck: [], scanSeconds: [], webhookDeliveries: [], scansOverdue: 0 };

describe("multipart upload metrics", () => {
  it("reports the workers' aborts as the database holds them at each scrape, both kinds always present", async () => {
    let totals = [{ by: "deadline", count: 3 }];
    const metrics = createMetrics({ readStore: async () => emptySnapshot, multipartAbortsByWorker: async () => totals });
    const page = () => metrics.registry.metrics();
    expect(await page()).toContain('multipart_uploads_aborted_by_worker_total{by="deadline"} 3');
    expect(await page()).toContain('multipart_uploads_aborted_by_worker_total{by="sweep"} 0');
    totals = [
      { by: "deadline", count: 4 },
      { by: "sweep", count: 2 },
    ];
    expect(await page()).toContain('multipart_uploads_aborted_by_worker_total{by="deadline"} 4');
    expect(await page()).toContain('multipart_uploads_aborted_by_worker_total{by="sweep"} 2');
  });

  it("counts the resumed uploads and the parts signed in this process", async () => {
    const metrics = createMetrics({ readStore: async () => emptySnapshot });
    metrics.uploads.uploadResumed();
    metrics.uploads.uploadResumed();
    metrics.uploads.partsSigned(5);
    const page = await metrics.registry.metrics();
    expect(page).toContain("uploads_resumed_total 2");
    expect(page).toContain("upload_parts_signed_total 5");
    expect(page).not.toContain("multipart_uploads_aborted_by_worker_total");
  });
});
