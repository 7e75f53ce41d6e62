import type { AuditActionName } from "../files/stored-object.js";

/**
 * Event names are the audit actions in lower dotted form, `resource.verb`: the last word of the
 * action is the verb, the words before it name the resource (DOWNLOAD_URL_ISSUED is
 * `download_url.issued`). Written out rather than derived so that a new action cannot ship
 * without a deliberate name; a unit test checks the table against the rule.
 */
export const EVENT_TYPE_OF: Readonly<Record<AuditActionName, string>> = {
  UPLOAD_INITIATED: "upload.initiated",
  UPLOAD_COMPLETED: "upload.completed",
  UPLOAD_FAILED: "upload.failed",
  SCAN_PASSED: "scan.passed",
  SCAN_FAILED: "scan.failed",
  DOWNLOAD_URL_ISSUED: "download_url.issued",
  OBJECT_DELETED: "object.deleted",
  OBJECT_EXPIRED: "object.expired",
  HOLD_PLACED: "hold.placed",
  HOLD_RELEASED: "hold.released",
  UPLOAD_URL_REFRESHED: "upload_url.refreshed",
  OBJECT_RESTORED: "object.restored",
  OBJECT_SUPERSEDED: "object.superseded",
  AUDIT_CHECKPOINT_SIGNED: "audit_checkpoint.signed",
  OBJECT_QUARANTINED: "object.quarantined",
};

export const WEBHOOK_EVENT_TYPES: readonly string[] = Object.values(EVENT_TYPE_OF);

/** The event of an audit action; undefined for an action this table does not know. */
export function eventTypeOf(action: string): string | undefined {
  return (EVENT_TYPE_OF as Record<string, string>)[action];
}

export function isWebhookEventType(name: string): boolean {
  return WEBHOOK_EVENT_TYPES.includes(name);
}

/** An endpoint without event types receives every event. */
export function subscribes(eventTypes: readonly string[], eventType: string): boolean {
  return eventTypes.length === 0 || eventTypes.includes(eventType);
}
