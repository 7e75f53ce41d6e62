import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRouterTransport } from "@connectrpc/connect";
import { v7 as uuidv7 } from "uuid";
import type { Config } from "../config/config.js";
import { scanDeadlineSeconds } from "../config/scan.js";
import type { Logger } from "../logger.js";
import { openDatabase, migrate, pingDatabase } from "../adapters/postgres/orm.js";
import { AuditChainReaderStore } from "../adapters/postgres/audit-chain-reader.js";
import { PostgresAuditCheckpointStore } from "../adapters/postgres/audit-checkpoint-store.js";
import { AuditTrailStore } from "../adapters/postgres/audit-trail-store.js";
import { ObjectCatalogStore } from "../adapters/postgres/object-catalog-store.js";
import { readStoreSnapshot } from "../adapters/postgres/metrics-queries.js";
import { readMultipartAborts } from "../adapters/postgres/multipart-upload-aborts.js";
import { readAuditCheckpointStates } from "../adapters/postgres/audit-checkpoint-states.js";
import { openS3ObjectStorage } from "../adapters/s3/s3-object-storage.js";
import { LifecycleClient } from "../adapters/temporal/lifecycle-client.js";
import { createReadiness } from "../app/readiness.js";
import { clamdFromConfig } from "./malware-engine.js";
import { fileStorageDeps } from "../app/files/deps.js";
import { createMetrics } from "../observability/metrics.js";
import { temporalClientInterceptors } from "../observability/temporal-tracing.js";
import type { Tracing } from "../observability/tracing.js";
import { startHttpServer, type RunningHttpServer } from "../rpc/http-server.js";
import { AUDIT_SIGNING_KEYS_PATH, auditSigningKeysPage } from "../rpc/audit-signing-keys-page.js";
import { createRpcHandler } from "../rpc/front-door/rpc-handler.js";
import { metricsInterceptor } from "../rpc/interceptors/metrics-interceptor.js";
import { traceInterceptor } from "../rpc/interceptors/trace-interceptor.js";
import { startMetricsServer } from "../rpc/metrics-server.js";
import { generateOpenApi, jsonApiServices, serializeOpenApi } from "../rpc/openapi/generate-openapi.js";
import { createRestHandler } from "../rpc/rest/rest-handler.js";
import { createTokenVerifier } from "../rpc/token-verifier.js";
import { apiRouterOptions, apiRoutes, type ApiUseCases } from "../rpc/api-router.js";
import { clientAddressValues } from "../rpc/client-address.js";
import { reflectionAccess } from "../rpc/reflection-service.js";
import { WebhookEndpointStore } from "../adapters/postgres/webhook-endpoint-store.js";
import { createUrlGuard } from "../adapters/webhooks/url-guard.js";
import { newWebhookSecret } from "../adapters/webhooks/webhook-signing.js";
import { SecretCipher } from "../adapters/webhooks/secret-cipher.js";
import { createCustomFieldsModule } from "./custom-fields-module.js";
import { createDemoPages } from "../demo/demo-pages.js";

export interface RunningApi {
  server: RunningHttpServer;
  /** Where /metrics and the detailed /readyz are served (config.metrics). */
  metricsAddress: AddressInfo;
  close(): Promise<void>;
}

export const REST_PREFIX = "/api/v1";

/**
 * Wires adapters, use cases and transports, and serves them on one port. `tracing`: the
 * process's (its owner shuts it down), for a span per RPC continued into the workflows.
 */
export async function startApi(config: Config, logger: Logger, tracing?: Tracing): Promise<RunningApi> {
  const orm = await openDatabase(config.databaseUrl, config.database.poolMax, config.database);
  const secretCipher = new SecretCipher(config.webhooks.secretKeys);
  if (config.webhooks.secretKeys.derived) logger.warn("WEBHOOK_SECRET_KEY is not set: webhook secrets use the development key (development mode only)");
  if (config.audit.developmentKey) logger.warn("AUDIT_SIGNING_KEY is not set: audit checkpoints are signed with the development key (development mode only)");
  const applied = await migrate(orm, secretCipher);
  if (applied.length > 0) logger.info({ applied }, "migrations applied");
  const s3 = openS3ObjectStorage(config.storage);
  const { storage } = s3;
  const lifecycle = await LifecycleClient.connect(config, temporalClientInterceptors(tracing));
  const customFields = await createCustomFieldsModule(config, orm, logger);
  // The API only watches the scanner (the worker scans): readiness and the scanner gauges.
  const scanner = config.clamd ? clamdFromConfig(config.clamd) : undefined;
  const readiness = createReadiness([
    { name: "database", check: () => pingDatabase(orm) },
    { name: "storage", check: () => storage.ping() },
    { name: "temporal", check: () => lifecycle.ping() },
    { name: "cache", check: () => customFields.pingCache() },
    // Bounded like the probe: a clamd that accepts and never answers must not keep sockets open.
    ...(scanner ? [{ name: "malware_scanner", check: () => scanner.ping({ signal: AbortSignal.timeout(2000) }), optional: true }] : []),
  ], { now: () => performance.now() });
  const trail = new AuditTrailStore(orm);
  const files = fileStorageDeps(config, { store: new ObjectCatalogStore(orm), trail, storage, lifecycle, now: () => new Date(), newId: () => uuidv7() });
  const useCases: ApiUseCases = {
    readiness,
    files,
    audit: {
      trail,
      chain: new AuditChainReaderStore(orm),
      checkpoints: new PostgresAuditCheckpointStore(orm),
      keys: config.audit.signingKeys,
      now: () => new Date(),
      brokenChain: (tenantId, problem) => logger.error({ tenantId, problem }, "audit chain does not verify: no checkpoint signed"),
    },
    webhooks: {
      store: new WebhookEndpointStore(orm, secretCipher),
      checkUrl: createUrlGuard({ allowPrivate: config.webhooks.allowPrivateUrls }),
      newSecret: newWebhookSecret,
      limits: config.webhooks,
      now: () => new Date(),
      newId: () => uuidv7(),
    },
    customFields: customFields.customFields,
    customers: customFields.customers,
    products: customFields.products,
    organization: customFields.organization,
  };
  const reflection = reflectionAccess(config.reflection, () => performance.now());
  const routes = apiRoutes(useCases, reflection);
  const metrics = createMetrics({
    readStore: () => readStoreSnapshot(orm, scanDeadlineSeconds(config), { perTenant: config.webhooks.maxInFlightPerTenant, perEndpoint: config.webhooks.maxInFlightPerEndpoint }),
    auditEntriesByTenant: () => trail.countByTenant(),
    auditCheckpoints: () => readAuditCheckpointStates(orm),
    multipartAbortsByWorker: () => readMultipartAborts(orm),
    cacheTotals: () => customFields.cacheTotals(),
    ...(scanner ? { malwareScannerUp: () => scanner.ping({ signal: AbortSignal.timeout(2000) }).then(() => true, () => false) } : {}),
    onCollectError: (error) => logger.warn({ err: error }, "metrics: database gauges unavailable"),
  });
  files.meters = metrics.uploads;
  const openApiJson = serializeOpenApi(generateOpenApi(jsonApiServices));
  const routerOptions = apiRouterOptions(useCases, {
    logger,
    verify: createTokenVerifier(config.auth),
    newRequestId: () => uuidv7(),
    maxRequestBodyBytes: config.maxRequestBodyBytes,
    observers: [...(tracing ? [traceInterceptor(tracing.tracer)] : []), metricsInterceptor(metrics.rpc)],
    reflection,
  });
  const connect = createRpcHandler({ routes, ...routerOptions, contextValues: clientAddressValues, logger });
  const rest = createRestHandler({
    services: jsonApiServices,
    transport: createRouterTransport(routes, { router: routerOptions }),
    maxBodyBytes: config.maxRequestBodyBytes,
    prefix: REST_PREFIX,
  });
  // Before the public port: once /readyz answers there, /metrics answers too.
  const operational = await startMetricsServer({ ...config.metrics, registry: metrics.registry, readiness, logger });
  logger.info({ address: `http://${operational.address.address}:${operational.address.port}` }, "metrics listening (/metrics, /readyz in full)");
  const server = await startHttpServer({
    host: config.host,
    port: config.port,
    logger,
    readiness,
    newRequestId: () => uuidv7(),
    pages: {
      // Public: an auditor needs the keys without an account (the auth interceptor never sees pages).
      [AUDIT_SIGNING_KEYS_PATH]: auditSigningKeysPage(config.audit.signingKeys.published),
      [`${REST_PREFIX}/openapi.json`]: (_req, res) => {
        (res as ServerResponse).writeHead(200, { "content-type": "application/json" });
        res.end(openApiJson);
      },
      // The demo page and its development token: only when development mode is asked for.
      ...(config.developmentMode ? createDemoPages({ ...config.auth, logger }) : {}),
    },
    restPrefix: REST_PREFIX,
    limits: config.http,
    rest,
    connect,
  });
  logger.info({ address: `http://${server.address.address}:${server.address.port}` }, "api listening");
  return {
    server,
    metricsAddress: operational.address,
    async close() {
      await Promise.all([server.close(config.shutdownGraceSeconds * 1000), operational.close()]);
      await Promise.allSettled([orm.close(), lifecycle.close(), customFields.close(), s3.close()]);
    },
  };
}
