import type { FieldMask } from "@bufbuild/protobuf/wkt";
import type { FieldViolation } from "../domain/errors.js";

/** What an update request's mask says it writes (AIP-134). */
export interface UpdateMask {
  /** The paths the mask names, the request's plumbing left out; undefined without a mask. */
  named?: string[];
  /** Named paths that are no writable field. */
  violations: FieldViolation[];
  /** Whether the update writes `path`: the mask names it, or without a mask the request sets it. */
  writes(path: string, isSet: boolean): boolean;
}

/**
 * `ignored`: paths of the request's own plumbing (its id, version, the mask itself), which name
 * nothing to write. A mask of only those is still a mask: the update then writes nothing.
 */
export function readUpdateMask(mask: FieldMask | undefined, writable: ReadonlySet<string>, ignored: ReadonlySet<string>): UpdateMask {
  const named = mask?.paths.length ? mask.paths.filter((p) => !ignored.has(p)) : undefined;
  const violations = (named ?? [])
    .filter((p) => !writable.has(p))
    .map((p) => ({ field: "updateMask", description: `"${p}" is not an updatable field` }));
  return { named, violations, writes: (path, isSet) => (named ? named.includes(path) : isSet) };
}
