import type { Actor } from "../../domain/actor.js";
import { resolveForCreate } from "../../domain/customfields/values.js";
import { cachedDefinitions, limitsOf, type CustomFieldsDeps } from "./deps.js";
import { ruleContext } from "./rule-context.js";

export interface ValuesInput {
  entityType: string;
  customFields: unknown;
  context?: Readonly<Record<string, unknown>>;
}

/** For another module's create: the final customFields to store (defaults, merge, validation). */
export async function resolveValues(deps: CustomFieldsDeps, actor: Actor, input: ValuesInput): Promise<Record<string, unknown>> {
  const defs = await cachedDefinitions(deps, actor.tenantId, input.entityType);
  const now = deps.now();
  return resolveForCreate(defs, input.customFields, ruleContext(actor, input.context, now), now, limitsOf(deps));
}
