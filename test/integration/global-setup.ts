/**
 * One real stack for the integration suite: PostgreSQL, MinIO and the Temporal dev server (the
 * real Temporal server on PostgreSQL with TEMPORAL_MODE=server) on free ports (never colliding with a running `npm start`), then the API server and the worker
 * as separate processes, exactly as they run in production: in the safe mode (no
 * DEVELOPMENT_MODE; a random HS256 secret with an issuer and audience), private webhook URLs
 * allowed explicitly for the tests' local receivers. A small control endpoint lets a test kill
 * and restart the worker.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { auditKeySettings } from "../../src/config/audit.js";
import type { Stack } from "../../src/stack/stack.js";
import { loadStack } from "../../src/stack/load-stack.js";
import { findFreePort } from "../../src/stack/free-port.js";
import { ProcessSupervisor } from "../support/process-supervisor.js";

/** What the stack's projects are given (`inject`), the same for each. */
interface Provided {
  apiUrl: string;
  controlUrl: string;
  stackEnv: Record<string, string>;
  /** The API server's and the worker's logs (api.log, worker.log). */
  logDir: string;
  /** Where the test clamd's signature database is: a test writes it again, then RELOAD. */
  clamdDatabaseDir: string;
}

/**
 * The integration files come in two projects (vitest.config.ts: those that share the stack at once
 * and those that need it alone), and vitest runs each project's global setup with its own module
 * instance. One stack serves both: the first setup starts it, the last teardown stops it.
 */
interface SharedStack {
  ready: Promise<{ provided: Provided; stop: () => Promise<void> }>;
  users: number;
}
const SHARED = Symbol.for("files-and-fields.integration-stack");
const registry = globalThis as unknown as Record<symbol, SharedStack | undefined>;


export const TEST_RETENTION = {
  RETENTION_TEMP_UPLOAD_SECONDS: "30",
  RETENTION_FAILED_UPLOAD_SECONDS: "4",
  RETENTION_SUPERSEDED_SECONDS: "4",
  RETENTION_IMPORT_ARTIFACT_SECONDS: "5",
};

export default async function setup(project: TestProject) {
  const shared = (registry[SHARED] ??= { ready: startShared(), users: 0 });
  shared.users++;
  const { provided, stop } = await shared.ready;
  for (const [key, value] of Object.entries(provided)) project.provide(key as keyof Provided, value);
  return async () => {
    if (--shared.users > 0) return;
    registry[SHARED] = undefined;
    await stop();
  };
}

async function startShared(): Promise<{ provided: Provided; stop: () => Promise<void> }> {
  const root = process.cwd();
  const dataDir = path.join(root, ".test-data", `run-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const quiet = process.env.TEST_STACK_VERBOSE ? (line: string) => console.log(line) : () => undefined;
  const clean = Object.fromEntries(
    // TEMPORAL_MODE stays: it picks which Temporal server the stack starts (test:temporal-server).
    Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|STORAGE_|TEMPORAL_(?!MODE$)|REDIS_URL|CLAMD_|PORT$|DEVELOPMENT_MODE$|AUTH_|METRICS_)/.test(k)),
  );
  const { startStack } = await loadStack();
  const stack: Stack = await startStack({ projectRoot: root, dataDir, env: clean, ports: "free", log: quiet });
  const port = await findFreePort();
  const env: Record<string, string> = {
    ...(clean as Record<string, string>),
    ...stack.env,
    ...TEST_RETENTION,
    NODE_ENV: "test",
    PORT: String(port),
    METRICS_PORT: String(await findFreePort()),
    AUTH_HS256_SECRET: randomBytes(32).toString("base64url"),
    AUTH_ISSUER: "https://issuer.integration.test",
    AUTH_AUDIENCE: "files-and-fields-integration",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
    AUDIT_SIGNING_KEY: auditKeySettings("integration-1", generateKeyPairSync("ed25519").privateKey).signingKey,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "info",
    TEMPORAL_TASK_QUEUE: `test-${process.pid}`,
    // Every worker the tests start (dozens: restarts, own pairs) bundles the workflows once between them.
    TEMPORAL_WORKFLOW_BUNDLE_CACHE: path.join(dataDir, "workflow-bundles"),
    COMPLETE_WAIT_TIMEOUT_SECONDS: "20",
    STORAGE_PRESIGN_UPLOAD_EXPIRY_SECONDS: "10",
    SCAN_HEARTBEAT_TIMEOUT_SECONDS: "5",
    SHUTDOWN_GRACE_SECONDS: "3",
    WEBHOOK_RETRY_INITIAL_SECONDS: "1",
    // Slow clients are cut off within seconds (test/integration/slow-clients.test.ts).
    HTTP_FIRST_BYTE_TIMEOUT_SECONDS: "2",
    HTTP_HEADERS_TIMEOUT_SECONDS: "3",
    HTTP_REQUEST_TIMEOUT_SECONDS: "5",
    HTTP2_SESSION_IDLE_TIMEOUT_SECONDS: "3",
    CUSTOM_FIELD_INDEX_BUILD_INTERVAL_SECONDS: "1",
    // A signature database a test loads is noticed within a second; small pages exercise the paging.
    MALWARE_RESCAN_CHECK_SECONDS: "1",
    MALWARE_RESCAN_PAGE_SIZE: "20",
    // The hourly checkpoint schedule fires on the hour: a run crossing it would sign tenants between
    // a test's writes and its own checks. Tests start the checkpoint workflow themselves.
    AUDIT_CHECKPOINT_INTERVAL_SECONDS: "31536000",
  };
  const supervisor = new ProcessSupervisor(root, env, path.join(dataDir, "logs"));
  await supervisor.startApi();
  await supervisor.startWorker();
  const controlUrl = await supervisor.listenControl(stack.services);
  const provided: Provided = {
    apiUrl: `http://127.0.0.1:${port}`,
    controlUrl,
    stackEnv: env,
    logDir: path.join(dataDir, "logs"),
    // The stack's clamd loads its signatures from here (src/stack/clamd.ts's layout).
    clamdDatabaseDir: path.join(dataDir, "clamd", "database"),
  };
  const stop = async () => {
    await supervisor.stopAll();
    await stack.stop();
    if (!process.env.TEST_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
  return { provided, stop };
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the stack's values into vitest's
  export interface ProvidedContext extends Provided {}
}
