/** The workflows bundled for the worker. */
export { objectLifecycle } from "./object-lifecycle.js";
