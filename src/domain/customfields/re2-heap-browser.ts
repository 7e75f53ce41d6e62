/**
 * re2-heap.ts as browsers get it (package.json's `browser` field): re2js runs in JavaScript's
 * own heap, which has no fixed size to run out of, so there is always room.
 */
export function heapHasRoomFor(_bytes: number): boolean {
  return true;
}
