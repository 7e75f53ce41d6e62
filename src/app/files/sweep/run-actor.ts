import { type Actor, SYSTEM_ACTOR_ID } from "../../../domain/actor.js";
import type { SweepRun } from "./deps.js";

/** The system, acting for the sweep run on one tenant's object. */
export function runActor(run: SweepRun, tenantId: string): Actor {
  return { tenantId, actorId: SYSTEM_ACTOR_ID, correlationId: run.correlationId };
}
