/**
 * The worker of the Temporal floor (bench/temporal-floor/workflow.ts), run as its own process by
 * bench/uploads-peers.ts so that its CPU is counted apart from ours. Same connection and the same
 * worker tuning as src/main/worker-runtime.ts, read from the same environment.
 * FLOOR_TASK_QUEUE names its task queue; it prints "floor worker started" when it polls.
 */
import { createRequire } from "node:module";
import { DefaultLogger, NativeConnection, Runtime, Worker } from "@temporalio/worker";
import { workflowBundlerOptions } from "../../src/adapters/temporal/workflow-bundle.js";
import { pollerOptions } from "../../src/adapters/temporal/worker-pollers.js";
import { parseConfig } from "../../src/config/config.js";

const require = createRequire(import.meta.url);
const config = parseConfig(process.env);
const taskQueue = process.env.FLOOR_TASK_QUEUE;
if (!taskQueue) throw new Error("FLOOR_TASK_QUEUE is not set");

Runtime.install({ logger: new DefaultLogger("WARN") });
const connection = await NativeConnection.connect({ address: config.temporal.address });
const worker = await Worker.create({
  connection,
  namespace: config.temporal.namespace,
  taskQueue,
  workflowsPath: require.resolve("./workflow.ts"),
  bundlerOptions: workflowBundlerOptions,
  maxCachedWorkflows: config.worker.maxCachedWorkflows,
  maxConcurrentWorkflowTaskExecutions: config.worker.maxConcurrentWorkflowTaskExecutions,
  ...pollerOptions(config.worker),
});
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => worker.shutdown());
console.log("floor worker started");
await worker.run();
await connection.close();
