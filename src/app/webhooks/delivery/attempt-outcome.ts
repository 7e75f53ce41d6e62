import type { DeliveryStatus } from "../../../domain/webhooks/delivery.js";

/**
 * What one attempt came to: the delivery's status when it ended (or MISSING), or `retry` with the
 * reason when it should be tried again (the activity turns that into a retryable failure).
 */
export type AttemptOutcome = { status: DeliveryStatus | "MISSING" } | { retry: string };
