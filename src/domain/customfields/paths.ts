/**
 * Dotted-path lookup into a rule or formula context (`entity.address.city`, `user.role`).
 * Only own properties are followed, so `__proto__`, `constructor` or `toString` never reach the
 * prototype chain: such a path simply resolves to undefined.
 */
import { isForbiddenKey, ownValue } from "./safe-keys.js";

export function splitPath(path: string): string[] {
  return path.split(".");
}

/** True when no segment is empty or forbidden; used to refuse such paths at save time. */
export function isSafePath(path: string): boolean {
  const segments = splitPath(path);
  return segments.every((segment) => segment.length > 0 && !isForbiddenKey(segment));
}

export function getPath(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const segment of splitPath(path)) {
    if (segment.length === 0) return undefined;
    current = ownValue(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}
