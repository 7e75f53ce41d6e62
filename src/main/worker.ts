/** The Temporal worker alone, configured by the environment (docs/configuration.md). */
import { createLogger } from "../logger.js";
import { startTracing } from "../observability/tracing.js";
import { warnIfDevelopmentMode } from "./development-mode.js";
import { workerClamd } from "../config/malware-scanner.js";
import { configOrExit, onShutdown, orExitOnConfigError } from "./fail-fast.js";
import { startWorker } from "./worker-runtime.js";

const config = configOrExit();
orExitOnConfigError(() => workerClamd(config.clamd, config.developmentMode));
const logger = createLogger(config.logLevel, "worker", config.logFormat);
warnIfDevelopmentMode(config, logger);
const tracing = startTracing({ serviceName: "files-and-fields-worker", endpoint: config.otlpEndpoint });
const worker = await startWorker(config, logger, tracing);
onShutdown(async () => {
  await worker.stop();
  await tracing?.shutdown();
});
await worker.done;
