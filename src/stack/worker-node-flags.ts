/**
 * Node flags for the worker process that only a command line can set: 8 MB semi-spaces, with
 * which (and the heap growing factor the worker sets itself, src/main/worker-heap.ts) its scans
 * of large uploads no longer keep V8 in back-to-back full collections. Every launcher of the
 * worker this project ships passes them: the npm scripts `worker` and `start`, the supervisor of
 * the test and bench stacks (docs/deployment.md for your own).
 */
export const WORKER_NODE_FLAGS = ["--max-semi-space-size=8"] as const;
