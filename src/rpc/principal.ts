import { createContextKey } from "@connectrpc/connect";
import type { UserProfile } from "../domain/actor.js";
import { AppError } from "../domain/errors.js";

/** The authenticated caller: the tenant always comes from the token, never from a request. */
export interface Principal {
  tenantId: string;
  actorId: string;
  permissions: ReadonlySet<string>;
  /** The token's identity claims, when it carries any. */
  profile?: UserProfile;
}

export const principalKey = createContextKey<Principal | undefined>(undefined, {
  description: "authenticated caller",
});

export const requestIdKey = createContextKey<string>("", { description: "request id" });

export function requirePrincipal(principal: Principal | undefined): Principal {
  if (!principal) throw new AppError("UNAUTHENTICATED", "authentication required");
  return principal;
}
