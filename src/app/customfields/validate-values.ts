import type { Actor } from "../../domain/actor.js";
import { validateForUpdate } from "../../domain/customfields/values.js";
import { cachedDefinitions, limitsOf, organizationContext, type CustomFieldsDeps } from "./deps.js";
import type { ValuesInput } from "./resolve-values.js";
import { ruleContext } from "./rule-context.js";

/** For another module's update: the supplied values, validated and coerced; no defaults. */
export async function validateValues(deps: CustomFieldsDeps, actor: Actor, input: ValuesInput): Promise<Record<string, unknown>> {
  const defs = await cachedDefinitions(deps, actor.tenantId, input.entityType);
  const now = deps.now();
  const context = ruleContext(actor, input.context, now, await organizationContext(deps, actor.tenantId));
  return validateForUpdate(defs, input.customFields, context, now, limitsOf(deps));
}
