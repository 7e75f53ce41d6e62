/**
 * V8's heap sizing for the worker, whose scans stream every uploaded byte through Buffers.
 *
 * Measured under 8 MiB PDF uploads at 16 clients: with V8's defaults the worker's main heap (about
 * 95 MB live: the Temporal SDK, the ORM, the S3 client) left the next collection less headroom
 * than one young generation, so a new incremental marking started as soon as the last one ended:
 * about 3-5 full mark-compacts a second, most of the worker's CPU per upload.
 * - Letting the old generation grow to twice its live size before the next marking brought them
 *   to about one a second and the worker's CPU per upload from 71-98 ms to 48 ms. V8 reads the
 *   factor at each collection, so the worker sets it itself at start (tuneWorkerHeap).
 * - A young generation of 8 MB semi-spaces on top: 4 mark-compacts in 20 s and 39 ms, for the
 *   same peak RSS. V8 sizes it when the process starts, so it is a command-line flag that every
 *   launcher passes (src/stack/worker-node-flags.ts).
 */
import v8 from "node:v8";

export function tuneWorkerHeap(): void {
  v8.setFlagsFromString("--heap-growing-percent=100");
}
