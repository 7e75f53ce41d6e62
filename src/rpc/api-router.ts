import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import type { AuditDeps } from "../app/audit/deps.js";
import type { Readiness } from "../app/readiness.js";
import type { CustomFieldsDeps } from "../app/customfields/deps.js";
import type { CustomersDeps } from "../app/customers/deps.js";
import type { ProductsDeps } from "../app/products/deps.js";
import type { OrganizationDeps } from "../app/organization/deps.js";
import type { FileStorageDeps } from "../app/files/deps.js";
import { recordRefusal } from "../app/files/record-refusal.js";
import type { WebhooksDeps } from "../app/webhooks/deps.js";
import type { Logger } from "../logger.js";
import { registerAuditService } from "./handlers/audit-service.js";
import { registerCustomFieldsService } from "./handlers/custom-fields-service.js";
import { registerCustomersService } from "./handlers/customers-service.js";
import { registerProductsService } from "./handlers/products-service.js";
import { registerFileStorageService } from "./handlers/file-storage-service.js";
import { registerOrganizationService } from "./handlers/organization-service.js";
import { registerWebhookService } from "./handlers/webhook-service.js";
import { registerHealthService } from "./health-service.js";
import { registerReflectionService, type ReflectionAccess } from "./reflection-service.js";
import { authInterceptor } from "./interceptors/auth-interceptor.js";
import { PRODUCT_ERRORS, type FrontDoorErrorOptions } from "./front-door/error-info-option.js";
import { deadlineInterceptor } from "./interceptors/deadline-interceptor.js";
import { errorInterceptor } from "./interceptors/error-interceptor.js";
import { requestIdInterceptor } from "./interceptors/request-id-interceptor.js";
import { validationInterceptor } from "./interceptors/validation-interceptor.js";
import { jsonWriteOptions } from "./json-options.js";
import type { TokenVerifier } from "./token-verifier.js";

/** The use cases every service of the API translates to. */
export interface ApiUseCases {
  readiness: Readiness;
  files: FileStorageDeps;
  audit: AuditDeps;
  webhooks: WebhooksDeps;
  customFields: CustomFieldsDeps;
  customers: CustomersDeps;
  products: ProductsDeps;
  organization: OrganizationDeps;
}

export interface ApiRouterSettings {
  logger: Logger;
  verify: TokenVerifier;
  newRequestId(): string;
  maxRequestBodyBytes: number;
  /** Interceptors that only observe (tracing, metrics), outermost first. */
  observers?: Interceptor[];
  /** The same value as given to apiRoutes; reflection needs a token unless it is public. */
  reflection?: ReflectionAccess;
}

/** Every service of the API on one router: the server, the REST bridge and the in-memory tests share it. */
export function apiRoutes(useCases: ApiUseCases, reflection?: ReflectionAccess): (router: ConnectRouter) => void {
  return (router) => {
    registerHealthService(router, useCases.readiness);
    registerFileStorageService(router, useCases.files);
    registerAuditService(router, useCases.audit);
    registerWebhookService(router, useCases.webhooks);
    registerCustomFieldsService(router, useCases.customFields);
    registerCustomersService(router, useCases.customers);
    registerProductsService(router, useCases.products);
    registerOrganizationService(router, useCases.organization);
    registerReflectionService(router, reflection);
  };
}

/**
 * The interceptors in their order (observers, errors, deadline, request id, auth, validation: auth
 * needs the request id for the refusals it audits, validation runs only for callers allowed to call)
 * and the router's limits and JSON options.
 */
export function apiRouterOptions(useCases: ApiUseCases, settings: ApiRouterSettings) {
  const { logger } = settings;
  return frontDoorRouterOptions({ ...settings, ...PRODUCT_ERRORS }, [
    authInterceptor(settings.verify, (refusal) =>
      recordRefusal(useCases.files, { tenantId: refusal.tenantId, actorId: refusal.actorId, requestId: refusal.requestId }, refusal.objectId, refusal.action, refusal.reason).catch(
        (error: unknown) => logger.error({ err: error, refusal }, "audit: could not record a refused call"),
      ),
      { publicReflection: settings.reflection?.public },
    ),
    validationInterceptor(),
  ]);
}

/**
 * What every set of routes behind the front door runs with (the API's, and the conformance
 * suite's service in test/conformance): observers, errors, deadline and request id around the
 * routes' own `guards`, the body limit, the JSON options, and whether errors get an ErrorInfo
 * (`fillErrorInfo`, said by each mount: error-info-option.ts), which createRpcHandler takes too.
 */
export function frontDoorRouterOptions(settings: Pick<ApiRouterSettings, "logger" | "newRequestId" | "maxRequestBodyBytes" | "observers"> & FrontDoorErrorOptions, guards: Interceptor[]) {
  const { fillErrorInfo } = settings;
  const interceptors: Interceptor[] = [
    ...(settings.observers ?? []),
    errorInterceptor(settings.logger, { fillErrorInfo }),
    deadlineInterceptor(),
    requestIdInterceptor(settings.newRequestId),
    ...guards,
  ];
  return { interceptors, readMaxBytes: settings.maxRequestBodyBytes, jsonOptions: { ...jsonWriteOptions, ignoreUnknownFields: false }, fillErrorInfo };
}
