/**
 * Room in re2-wasm's one fixed 16 MiB heap, asked by allocating and freeing at once. RE2 aborts
 * inside WebAssembly when an allocation fails, and what a compilation had allocated before it
 * aborted is never freed: so a compilation starts only once its peak fits (pattern.ts).
 *
 * Browsers have no such heap (re2-browser.ts runs in JavaScript's): package.json's `browser` field
 * maps this file to re2-heap-browser.ts.
 */
import * as glue from "re2-wasm/build/wasm/re2.js";

interface Allocator {
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

const allocator = (glue as unknown as { default: Allocator }).default;

/** Whether `bytes` can be allocated in one piece now (the largest need of one compilation). */
export function heapHasRoomFor(bytes: number): boolean {
  let pointer = 0;
  try {
    pointer = allocator._malloc(bytes);
  } catch {
    return false;
  }
  if (pointer === 0) return false;
  allocator._free(pointer);
  return true;
}
