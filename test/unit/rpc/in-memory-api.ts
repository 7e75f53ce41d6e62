/**
 * The API in memory, as connect-es tests itself: the real handlers, the real interceptors (error
 * mapping, request ids, HS256 auth, protovalidate) and the real REST transcoder, wired as
 * src/main/api.ts wires them, over in-memory fakes of the ports. Typed clients call it through
 * `createRouterTransport` (the Connect protocol, serialized, no socket); REST calls go through the
 * same `createRestHandler` the server mounts at /api/v1, with an in-memory request and response.
 * What needs a real socket (gRPC, gRPC-Web, HTTP/2, the dispatcher) is tested in test/integration.
 */
import { Readable } from "node:stream";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DescService } from "@bufbuild/protobuf";
import { createClient, createConnectRouter, createRouterTransport, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createUniversalHandlerClient, type UniversalClientFn } from "@connectrpc/connect/protocol";
import { pino } from "pino";
import { v7 as uuidv7 } from "uuid";
import { parseConfig } from "../../../src/config/config.js";
import { inProcessCustomFields } from "../../../src/app/customfields/in-process-custom-fields.js";
import type { CustomersDeps } from "../../../src/app/customers/deps.js";
import type { ProductsDeps } from "../../../src/app/products/deps.js";
import type { ProductExactFilter, ProductFields } from "../../../src/app/products/port.js";
import type { WebhooksDeps } from "../../../src/app/webhooks/deps.js";
import { createUrlGuard } from "../../../src/adapters/webhooks/url-guard.js";
import { newWebhookSecret } from "../../../src/adapters/webhooks/webhook-signing.js";
import { apiRouterOptions, apiRoutes, type ApiUseCases } from "../../../src/rpc/api-router.js";
import { jsonApiServices } from "../../../src/rpc/openapi/generate-openapi.js";
import type { ReflectionAccess } from "../../../src/rpc/reflection-service.js";
import { createRestHandler } from "../../../src/rpc/rest/rest-handler.js";
import { createTokenVerifier } from "../../../src/rpc/token-verifier.js";
import { fakeDeps } from "../customfields-app/fakes.js";
import { tokenFor, UNIT_SIGNING } from "../../support/tokens.js";
import { TEST_AUDIT_SIGNING_KEY } from "../../support/config-env.js";
import { allReady, emptyAuditChain, FakeAuditTrail, fakeFileStorage, MemoryCustomerStore, MemoryEntityStore, MemoryOrganizationProfileStore, MemoryWebhookEndpointStore } from "./fakes.js";

/** Configuration as the server parses it, defaults included; no address in it is ever dialled. */
const config = parseConfig({
  DATABASE_URL: "postgres://unused.invalid/db",
  STORAGE_ENDPOINT: "http://storage.invalid",
  STORAGE_BUCKET: "bucket",
  STORAGE_ACCESS_KEY: "unused",
  STORAGE_SECRET_KEY: "unused",
  TEMPORAL_ADDRESS: "temporal.invalid:7233",
  // The safe mode, as in production, with its own secret, issuer and audience.
  AUTH_HS256_SECRET: UNIT_SIGNING.secret,
  AUTH_ISSUER: UNIT_SIGNING.issuer,
  AUTH_AUDIENCE: UNIT_SIGNING.audience,
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
  AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY,
  // Only so that the URL guard never resolves a host: webhook URLs are tested in test/unit/webhooks.
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
});

const NOW = new Date("2026-03-01T12:00:00Z");

interface RestResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
}

interface RestCall {
  token?: string;
  body?: unknown;
  /** Sent as is, instead of `body` as JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
}

function bearer(token: string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
}

/** An IncomingMessage as the REST handler reads it: url, method, headers and a body stream. */
function incoming(method: string, path: string, headers: Record<string, string>, body?: string): IncomingMessage {
  return Object.assign(Readable.from(body === undefined ? [] : [Buffer.from(body)]), { method, url: path, headers }) as unknown as IncomingMessage;
}

/** A ServerResponse that keeps what the handler wrote. */
function recorder() {
  const written = { status: 0, headers: {} as Record<string, string>, text: "" };
  const res = {
    writeHead(status: number, headers: Record<string, string> = {}) {
      written.status = status;
      for (const [name, value] of Object.entries(headers)) written.headers[name.toLowerCase()] = String(value);
      return res;
    },
    end(chunk?: string) {
      written.text += chunk ?? "";
      return res;
    },
  };
  return { res: res as unknown as ServerResponse, written };
}

interface InMemoryApiOptions {
  /** Interceptors after the router's own, just before the handler: they see only the calls that passed auth and validation. */
  innermost?: Interceptor[];
  /** Server reflection public (rate-limited by this access) instead of needing a token. */
  reflection?: ReflectionAccess;
}

/** A fresh API over empty fakes: one per test keeps tests independent. */
export function inMemoryApi(options: InMemoryApiOptions = {}) {
  const { deps: files, objects, storage, lifecycle, trail } = fakeFileStorage(config, NOW, (store) => new FakeAuditTrail(store));
  const fields = fakeDeps(NOW);
  const organizationStore = new MemoryOrganizationProfileStore();
  fields.deps.organizations = organizationStore;
  const customerStore = new MemoryCustomerStore();
  const customers: CustomersDeps = { store: customerStore, customFields: inProcessCustomFields(fields.deps), now: () => NOW, newId: () => uuidv7() };
  const productStore = new MemoryEntityStore<ProductFields, ProductExactFilter>();
  const products: ProductsDeps = { ...customers, store: productStore };
  const endpointStore = new MemoryWebhookEndpointStore();
  const webhooks: WebhooksDeps = {
    store: endpointStore,
    // Private addresses allowed (WEBHOOK_ALLOW_PRIVATE_URLS above): the guard never resolves a host.
    checkUrl: createUrlGuard({ allowPrivate: config.webhooks.allowPrivateUrls }),
    newSecret: newWebhookSecret,
    limits: config.webhooks,
    now: () => NOW,
    newId: () => uuidv7(),
  };

  // The server's own composition: the same services, interceptors (tracing and metrics left out,
  // they observe and do not answer) and router options.
  const organization = { store: organizationStore, now: () => NOW };
  const audit = { trail, ...emptyAuditChain(), now: () => NOW };
  const useCases: ApiUseCases = { readiness: allReady, files, audit, webhooks, customFields: fields.deps, customers, products, organization };
  const routes = apiRoutes(useCases, options.reflection);
  let requestIds = 0;
  const router = apiRouterOptions(useCases, {
    logger: pino({ level: "silent" }),
    verify: createTokenVerifier(config.auth),
    newRequestId: () => `req-${++requestIds}`,
    maxRequestBodyBytes: config.maxRequestBodyBytes,
    reflection: options.reflection,
  });
  router.interceptors.push(...(options.innermost ?? []));
  const restHandler = createRestHandler({
    services: jsonApiServices,
    transport: createRouterTransport(routes, { router }),
    maxBodyBytes: config.maxRequestBodyBytes,
    prefix: "/api/v1",
  });

  /**
   * The router's HTTP handlers as a client that takes a request's bytes as they are: what the API
   * does with a body (decode, interceptors, handler), without a client encoding it first.
   */
  const httpClient = (): UniversalClientFn => {
    const connectRouter = createConnectRouter({ ...router, connect: true });
    routes(connectRouter);
    return createUniversalHandlerClient(connectRouter.handlers);
  };

  /** The in-memory Connect transport to the router, with the token as bearer when given. */
  const transport = (token?: string): Transport =>
    createRouterTransport(routes, { router, transport: { interceptors: token ? [bearer(token)] : [] } });

  return {
    objects,
    storage,
    lifecycle,
    fields: fields.store,
    customers: customerStore,
    products: productStore,
    organizations: organizationStore,
    endpoints: endpointStore,
    token: tokenFor,
    /** The configuration the API runs with (its limits). */
    config,

    transport,
    httpClient,

    /** A typed client over the in-memory transport. */
    client<S extends DescService>(service: S, token?: string): Client<S> {
      return createClient(service, transport(token));
    },

    /** One call of the JSON API, as fetch would make it to the server's /api/v1. */
    async rest<T = any>(method: string, path: string, call: RestCall = {}): Promise<RestResponse<T>> {
      const headers: Record<string, string> = { ...call.headers };
      if (call.token) headers.authorization = `Bearer ${call.token}`;
      let body = call.rawBody;
      if (call.body !== undefined) {
        body = JSON.stringify(call.body);
        headers["content-type"] ??= "application/json";
      }
      const { res, written } = recorder();
      await restHandler(incoming(method, path, headers, body), res);
      return { status: written.status, headers: written.headers, body: written.text ? JSON.parse(written.text) : undefined };
    },
  };
}

export type InMemoryApi = ReturnType<typeof inMemoryApi>;
