import type { Actor } from "../../domain/actor.js";
import type { RuleContext } from "../../domain/customfields/conditions.js";
import { isForbiddenKey } from "../../domain/customfields/safe-keys.js";

/**
 * The context rules and formulas see: the caller's keys (entity, organization, customer, ...),
 * then the user from the token and the server's time, which the caller can never override.
 */
export function ruleContext(actor: Actor, callerContext: Readonly<Record<string, unknown>> | undefined, now: Date): RuleContext {
  const context = new Map<string, unknown>([["entity", {}]]);
  for (const [key, value] of Object.entries(callerContext ?? {})) {
    if (!isForbiddenKey(key)) context.set(key, value);
  }
  context.set("user", { id: actor.actorId });
  context.set("timestamp", now.toISOString());
  return Object.fromEntries(context);
}
