/** The API server alone, configured by the environment (docs/configuration.md). */
import { createLogger } from "../logger.js";
import { startTracing } from "../observability/tracing.js";
import { startApi } from "./api.js";
import { warnIfDevelopmentMode } from "./development-mode.js";
import { configOrExit, onShutdown } from "./fail-fast.js";

const config = configOrExit();
const logger = createLogger(config.logLevel, "api", config.logFormat);
warnIfDevelopmentMode(config, logger);
const tracing = startTracing({ serviceName: "files-and-fields-api", endpoint: config.otlpEndpoint });
const api = await startApi(config, logger, tracing);
onShutdown(async () => {
  await api.close();
  await tracing?.shutdown();
});
