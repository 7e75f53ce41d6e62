/** The API server alone, configured by the environment (see README). */
import { createLogger } from "../logger.js";
import { startApi } from "./api.js";
import { configOrExit, onShutdown } from "./fail-fast.js";

const config = configOrExit();
const logger = createLogger(config.logLevel, "api");
const api = await startApi(config, logger);
onShutdown(() => api.close());
