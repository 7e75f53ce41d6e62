/** The Temporal worker alone, configured by the environment (see README). */
import { createLogger } from "../logger.js";
import { configOrExit, onShutdown } from "./fail-fast.js";
import { startWorker } from "./worker-runtime.js";

const config = configOrExit();
const logger = createLogger(config.logLevel, "worker");
const worker = await startWorker(config, logger);
onShutdown(() => worker.stop());
await worker.done;
