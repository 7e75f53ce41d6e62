/**
 * 1. InitiateUpload over REST, sequential latency and concurrent throughput, against GET /healthz
 * on the same server: the HTTP floor under the same client, sockets and machine.
 */
import type { BenchGroup } from "./context.js";
import { baseline, figure } from "./figure.js";
import { percentile, sampleSequential, throughput } from "./stats.js";
import { apiFor, progress, type Api } from "./support.js";
import { initiate } from "./uploads.js";

const WARM_UP_CALLS = 20;
const PDF_DECLARATION = { objectClass: "GENERAL_DOCUMENT", contentType: "application/pdf", filename: "bench.pdf" };

async function healthz(api: Api): Promise<void> {
  const res = await fetch(`${api.baseUrl}/healthz`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
}

export const apiLatency: BenchGroup = {
  name: "api",
  kind: "stack",
  async run({ stack, options }) {
    const api = await apiFor(stack.apiUrl, "bench-api");
    // Every call starts a real object workflow; it only waits on its 24 h pending deadline.
    const callInitiate = () => initiate(api, PDF_DECLARATION, 1000);
    const callHealthz = () => healthz(api);
    await sampleSequential(WARM_UP_CALLS, callInitiate);
    await sampleSequential(WARM_UP_CALLS, callHealthz);

    progress(`initiate: ${options.initiateCalls} sequential calls`);
    const initiateMs = await sampleSequential(options.initiateCalls, callInitiate);
    const healthzMs = await sampleSequential(options.initiateCalls, callHealthz);
    progress(`initiate: throughput at concurrency ${options.concurrency} for ${options.throughputSeconds} s`);
    const initiateRate = await throughput(options.throughputSeconds, options.concurrency, callInitiate);
    const healthzRate = await throughput(options.throughputSeconds, options.concurrency, callHealthz);

    const n = `n=${options.initiateCalls} sequential`;
    return [
      figure("InitiateUpload latency p50", percentile(initiateMs, 50), "ms", baseline("GET /healthz p50", percentile(healthzMs, 50), "ms"), n),
      figure("InitiateUpload latency p99", percentile(initiateMs, 99), "ms", baseline("GET /healthz p99", percentile(healthzMs, 99), "ms"), n),
      figure(
        `InitiateUpload throughput, concurrency ${options.concurrency}`,
        initiateRate,
        "calls/s",
        baseline("GET /healthz", healthzRate, "calls/s"),
        `${options.throughputSeconds} s each; each initiate writes 3 rows and starts a workflow`,
      ),
    ];
  },
};
