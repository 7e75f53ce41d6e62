/**
 * Webhook delivery: which URLs may be called, how often and how long deliveries are retried, how
 * many run at once per endpoint and tenant, and the worker of their own they run on.
 */
import { defaultTenantShare } from "../domain/webhooks/fair-share.js";
import type { Env } from "./env.js";
import { boolean, integer, optional } from "./env-values.js";
import { activityPollerDefaults, derivedPollers, type PollerSettings, workflowPollerDefaults } from "./pollers.js";
import { parseWebhookSecretKeys, type WebhookSecretKeys } from "./webhook-secret-keys.js";

export interface WebhookConfig {
  /** Development: URLs that resolve to loopback, private or link-local addresses are allowed. */
  allowPrivateUrls: boolean;
  /**
   * How often the worker asks the database whether webhook work waits that no notification
   * announced (a safety net: dispatch is driven by notifications), and wakes the dispatcher if so.
   */
  dispatchCatchUpSeconds: number;
  retryInitialSeconds: number;
  retryTotalHours: number;
  requestTimeoutSeconds: number;
  /** Endpoints one tenant may register; the next create is refused. */
  maxEndpointsPerTenant: number;
  /** Delivery workflows started and not yet ended per endpoint; the rest wait in the outbox. */
  maxInFlightPerEndpoint: number;
  /** The same per tenant, its fair share of the webhook worker's slots; default a quarter of them. */
  maxInFlightPerTenant: number;
  /** Deliveries and the dispatcher run here, on a worker of their own, never beside scans. */
  taskQueue: string;
  maxConcurrentActivities: number;
  maxConcurrentWorkflowTasks: number;
  /** Not configured on their own: derived from the two above by the main worker's default rules. */
  workflowTaskPollers: PollerSettings;
  activityTaskPollers: PollerSettings;
  /** After a rotation, deliveries are signed with the old secret too for this long. */
  secretOverlapSeconds: number;
  secretKeys: WebhookSecretKeys;
}

export function parseWebhooks(env: Env, developmentMode: boolean, mainTaskQueue: string): WebhookConfig {
  const maxConcurrentActivities = integer(env, "WEBHOOK_WORKER_MAX_CONCURRENT_ACTIVITIES", 20);
  const maxConcurrentWorkflowTasks = integer(env, "WEBHOOK_WORKER_MAX_CONCURRENT_WORKFLOW_TASKS", 4, 2);
  return {
    allowPrivateUrls: boolean(env, "WEBHOOK_ALLOW_PRIVATE_URLS", developmentMode),
    dispatchCatchUpSeconds: integer(env, "WEBHOOK_DISPATCH_CATCH_UP_SECONDS", 300),
    retryInitialSeconds: integer(env, "WEBHOOK_RETRY_INITIAL_SECONDS", 30),
    retryTotalHours: integer(env, "WEBHOOK_RETRY_TOTAL_HOURS", 24),
    requestTimeoutSeconds: integer(env, "WEBHOOK_REQUEST_TIMEOUT_SECONDS", 10),
    maxEndpointsPerTenant: integer(env, "WEBHOOK_MAX_ENDPOINTS_PER_TENANT", 10),
    maxInFlightPerEndpoint: integer(env, "WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT", 10),
    maxInFlightPerTenant: integer(env, "WEBHOOK_MAX_IN_FLIGHT_PER_TENANT", defaultTenantShare(maxConcurrentActivities)),
    taskQueue: optional(env, "WEBHOOK_TASK_QUEUE") ?? `${mainTaskQueue}-webhooks`,
    maxConcurrentActivities,
    maxConcurrentWorkflowTasks,
    workflowTaskPollers: derivedPollers(maxConcurrentWorkflowTasks, workflowPollerDefaults(maxConcurrentWorkflowTasks)),
    activityTaskPollers: derivedPollers(maxConcurrentActivities, activityPollerDefaults(maxConcurrentActivities)),
    secretOverlapSeconds: integer(env, "WEBHOOK_SECRET_OVERLAP_SECONDS", 24 * 3600, 0),
    secretKeys: parseWebhookSecretKeys(env, developmentMode),
  };
}
