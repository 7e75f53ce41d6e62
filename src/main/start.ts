/**
 * `npm start`: everything the service needs on loopback. What the environment configures is
 * used; an embedded default is started for the rest (PostgreSQL, MinIO, Temporal dev server with
 * its UI, Redis for the definition cache). Then migrations, the API and the worker.
 * Ctrl-C stops everything it started; a second start reuses `.data/` (or STACK_DATA_DIR). It asks for development
 * mode (DEVELOPMENT_MODE=true unless the environment says otherwise): the demo page, development
 * tokens, webhooks to local receivers.
 */
import path from "node:path";
import { createLogger } from "../logger.js";
import { loadStack } from "../stack/load-stack.js";
import { statusLine } from "../stack/status-line.js";
import { startTracing } from "../observability/tracing.js";
import { startApi } from "./api.js";
import { warnIfDevelopmentMode } from "./development-mode.js";
import { configOrExit, onShutdown } from "./fail-fast.js";
import { startWorker } from "./worker-runtime.js";

const projectRoot = process.cwd();
// On a terminal, a first start's Go tool builds show their progress in a line rewritten in place.
const terminal = process.stdout.isTTY ? statusLine(process.stdout) : undefined;
const say = terminal?.log ?? ((line: string) => process.stdout.write(`${line}\n`));

const { startStack } = await loadStack();
const stack = await startStack({
  projectRoot,
  dataDir: process.env.STACK_DATA_DIR?.trim() || path.join(projectRoot, ".data"),
  env: process.env,
  ports: "defaults",
  log: (line) => say(`  ${line}`),
  status: terminal?.show,
}).catch((error: Error) => {
  process.stderr.write(`could not start the stack: ${error.message}\n`);
  process.exit(1);
});
Object.assign(process.env, stack.env);
const config = configOrExit({ DEVELOPMENT_MODE: "true", ...process.env, ...stack.env });
const logger = createLogger(config.logLevel, "files-and-fields", config.logFormat);
warnIfDevelopmentMode(config, logger);
const tracing = startTracing({ serviceName: "files-and-fields", endpoint: config.otlpEndpoint });
const api = await startApi(config, logger, tracing);
const worker = await startWorker(config, logger, tracing);

for (const component of stack.components) say(`${component.name}: ${component.address}`);
say(`API: http://${config.host}:${api.server.address.port} (REST under /api/v1, gRPC and Connect on the same port)`);
say(`metrics: http://${api.metricsAddress.address}:${api.metricsAddress.port}/metrics (and /readyz in full; loopback only by default)`);
say("ready");

onShutdown(async () => {
  say("stopping…");
  // The API and worker first: they hold connections to the stack's servers.
  await Promise.allSettled([api.close().then(() => say("  API: stopped")), worker.stop().then(() => say("  worker: stopped"))]);
  await tracing?.shutdown();
  await stack.stop();
  say("stopped");
});
