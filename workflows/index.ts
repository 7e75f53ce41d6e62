/** The workflows bundled for the worker. */
export { objectLifecycle } from "./object-lifecycle.js";
export { retentionSweep } from "./retention-sweep.js";
