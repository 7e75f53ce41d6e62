import type { Actor } from "../../domain/actor.js";
import type { HandlerContext } from "@connectrpc/connect";
import { principalKey, requestIdKey, requirePrincipal } from "../principal.js";

/** The caller as the use cases see it: tenant and actor from the token, the request id. */
export function actorOf(ctx: HandlerContext): Actor {
  const principal = requirePrincipal(ctx.values.get(principalKey));
  const actor: Actor = { tenantId: principal.tenantId, actorId: principal.actorId, requestId: ctx.values.get(requestIdKey) || undefined };
  if (principal.profile) actor.profile = principal.profile;
  return actor;
}

/** Whether the token grants this permission (beyond the one the method itself required). */
export function holds(ctx: HandlerContext, permission: string): boolean {
  return requirePrincipal(ctx.values.get(principalKey)).permissions.has(permission);
}
