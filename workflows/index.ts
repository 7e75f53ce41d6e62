/** The workflows bundled for the worker. */
export { auditCheckpoints } from "./audit-checkpoints.js";
export { malwareRescan } from "./malware-rescan.js";
export { objectLifecycle } from "./object-lifecycle.js";
export { retentionSweep } from "./retention-sweep.js";
export { webhookDelivery } from "./webhook-delivery.js";
export { webhookDispatch } from "./webhook-dispatch.js";
export { webhookDispatcher } from "./webhook-dispatcher.js";
