import type { Actor } from "../../domain/actor.js";
import type { RuleContext } from "../../domain/customfields/conditions.js";
import type { FieldDefinition } from "../../domain/customfields/definition.js";
import { resolveForCreate } from "../../domain/customfields/values.js";
import { cachedDefinitions, limitsOf, organizationContext, type CustomFieldsDeps } from "./deps.js";
import { ruleContext } from "./rule-context.js";

export interface ValuesInput {
  entityType: string;
  customFields: unknown;
  context?: Readonly<Record<string, unknown>>;
}

/** For another module's create: the final customFields to store (defaults, merge, validation). */
export async function resolveValues(deps: CustomFieldsDeps, actor: Actor, input: ValuesInput): Promise<Record<string, unknown>> {
  const defs = await cachedDefinitions(deps, actor.tenantId, input.entityType);
  return resolveAgainst(deps, actor, defs, input);
}

/** The same against the given definitions (a preview's: the stored ones with a draft). */
export async function resolveAgainst(deps: CustomFieldsDeps, actor: Actor, defs: FieldDefinition[], input: ValuesInput): Promise<Record<string, unknown>> {
  const now = deps.now();
  return resolveForCreate(defs, input.customFields, await resolutionContext(deps, actor, input, now), now, limitsOf(deps));
}

/** The rule and formula context of a resolve: the caller's keys, the user, the organization, the time. */
export async function resolutionContext(deps: CustomFieldsDeps, actor: Actor, input: ValuesInput, now: Date): Promise<RuleContext> {
  return ruleContext(actor, input.context, now, await organizationContext(deps, actor.tenantId));
}
