/** Who does something, for the audit trail. */
export interface Actor {
  tenantId: string;
  actorId: string;
  requestId?: string;
  /**
   * What ties this step to its cause when that is not the request itself: the complete request a
   * scan follows from, or `workflow:<id>/<run>` for a timer. Defaults to the request id.
   */
  correlationId?: string;
  /** What the token says about the user, for rules and formulas (`user.*`, docs/custom-fields.md). */
  profile?: UserProfile;
}

/** Optional identity claims of the token: `name`, `email`, `role`, `branch_id`. */
export interface UserProfile {
  name?: string;
  email?: string;
  role?: string;
  branchId?: string;
}

/** The correlation id an audit entry of this actor carries; the database fills it when neither is known. */
export function correlationOf(actor: Actor): string | null {
  return actor.correlationId ?? actor.requestId ?? null;
}

export const SYSTEM_ACTOR_ID = "system";
