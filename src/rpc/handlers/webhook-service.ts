import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { WebhookService, type UpdateWebhookEndpointRequest } from "@files-and-fields/client/gen/filestorage/v1/webhooks_service_pb.js";
import { createWebhookEndpoint } from "../../app/webhooks/create-endpoint.js";
import { deleteWebhookEndpoint } from "../../app/webhooks/delete-endpoint.js";
import type { WebhooksDeps } from "../../app/webhooks/deps.js";
import { getWebhookEndpoint, listWebhookEndpoints } from "../../app/webhooks/read-endpoints.js";
import { updateWebhookEndpoint, type UpdateEndpointInput } from "../../app/webhooks/update-endpoint.js";
import { rotateWebhookSecret } from "../../app/webhooks/rotate-secret.js";
import { validationFailed } from "../../domain/errors.js";
import type { WebhookEndpointView } from "../../domain/webhooks/endpoint.js";
import { readUpdateMask } from "../update-mask.js";
import { actorOf } from "./actor.js";

/** Translates between the contract and the webhook endpoint use cases, and nothing else. */
export function registerWebhookService(router: ConnectRouter, deps: WebhooksDeps): void {
  router.service(WebhookService, {
    async createWebhookEndpoint(req, ctx) {
      const created = await createWebhookEndpoint(deps, actorOf(ctx), { url: req.url, eventTypes: req.eventTypes });
      return { webhookEndpoint: toEndpointMessage(created.endpoint), secret: created.secret };
    },
    async listWebhookEndpoints(req, ctx) {
      const page = await listWebhookEndpoints(deps, actorOf(ctx), req.pageSize, req.pageToken);
      return { webhookEndpoints: page.items.map(toEndpointMessage), nextPageToken: page.nextPageToken };
    },
    async getWebhookEndpoint(req, ctx) {
      return { webhookEndpoint: toEndpointMessage(await getWebhookEndpoint(deps, actorOf(ctx), req.id)) };
    },
    async updateWebhookEndpoint(req, ctx) {
      return { webhookEndpoint: toEndpointMessage(await updateWebhookEndpoint(deps, actorOf(ctx), updateInput(req))) };
    },
    async deleteWebhookEndpoint(req, ctx) {
      await deleteWebhookEndpoint(deps, actorOf(ctx), req.id);
      return {};
    },
    async rotateWebhookSecret(req, ctx) {
      const rotated = await rotateWebhookSecret(deps, actorOf(ctx), req.id);
      return { webhookEndpoint: toEndpointMessage(rotated.endpoint), secret: rotated.secret };
    },
  });
}

function toEndpointMessage(endpoint: WebhookEndpointView) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    eventTypes: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason ?? "",
    createdAt: timestampFromDate(endpoint.createdAt),
    updatedAt: timestampFromDate(endpoint.updatedAt),
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt ? timestampFromDate(endpoint.previousSecretExpiresAt) : undefined,
  };
}

const PLUMBING = new Set(["id", "update_mask"]);
const WRITABLE = new Set(["url", "event_types", "enabled"]);

/**
 * The given fields: those the mask names, or without a mask those the request sets (a repeated
 * field cannot say "set to empty" without a mask, so `event_types: []` needs one).
 */
function updateInput(req: UpdateWebhookEndpointRequest): UpdateEndpointInput {
  const mask = readUpdateMask(req.updateMask, WRITABLE, PLUMBING);
  if (mask.violations.length > 0) throw validationFailed(mask.violations);
  const given = mask.writes;
  if (given("url", req.url !== undefined) && req.url === undefined) throw validationFailed([{ field: "url", description: "cannot be cleared" }]);
  return {
    id: req.id,
    url: given("url", req.url !== undefined) ? req.url : undefined,
    eventTypes: given("event_types", req.eventTypes.length > 0) ? req.eventTypes : undefined,
    enabled: given("enabled", req.enabled !== undefined) ? (req.enabled ?? false) : undefined,
  };
}
