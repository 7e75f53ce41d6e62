import type { Actor } from "../../domain/actor.js";
import type { RuleContext } from "../../domain/customfields/conditions.js";
import { isForbiddenKey } from "../../domain/customfields/safe-keys.js";

/**
 * The context rules and formulas see: the caller's keys (entity, customer, ...), then the user
 * from the token (`sub` as id with its identity claims, token-verifier.ts), the tenant's stored
 * organization profile and the server's time, which the caller can never override (a caller's
 * `organization` counts only while none is given here). docs/custom-fields.md describes it.
 */
export function ruleContext(
  actor: Actor,
  callerContext: Readonly<Record<string, unknown>> | undefined,
  now: Date,
  organization?: Record<string, unknown>,
): RuleContext {
  const context = new Map<string, unknown>([["entity", {}]]);
  for (const [key, value] of Object.entries(callerContext ?? {})) {
    if (!isForbiddenKey(key)) context.set(key, value);
  }
  context.set("user", { ...actor.profile, id: actor.actorId });
  if (organization !== undefined) context.set("organization", organization);
  context.set("timestamp", now.toISOString());
  return Object.fromEntries(context);
}
