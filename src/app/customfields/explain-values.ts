import type { Actor } from "../../domain/actor.js";
import { refusalReason, resolveTraced, type Resolution } from "../../domain/customfields/resolution.js";
import type { ErrorReason } from "../../domain/errors.js";
import { cachedDefinitions, limitsOf, type CustomFieldsDeps } from "./deps.js";
import { resolutionContext, type ValuesInput } from "./resolve-values.js";

export interface Explanation extends Resolution {
  /** What a create would fail with; undefined when it would succeed. */
  reason?: ErrorReason;
}

/**
 * What resolve-for-create would do with these inputs, traced: the same definitions, context and
 * engine, with violations answered rather than thrown.
 */
export async function explainValues(deps: CustomFieldsDeps, actor: Actor, input: ValuesInput): Promise<Explanation> {
  const defs = await cachedDefinitions(deps, actor.tenantId, input.entityType);
  const now = deps.now();
  const resolution = resolveTraced(defs, input.customFields, await resolutionContext(deps, actor, input, now), now, limitsOf(deps));
  const reason = refusalReason(resolution);
  return reason === undefined ? resolution : { ...resolution, reason };
}
