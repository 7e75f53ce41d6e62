import type { Logger } from "../logger.js";
import type { ScheduleOutcome } from "../adapters/temporal/ensure-schedule.js";

/** One line per schedule and worker start; a schedule left alone says whose it is, so an operator sees why. */
export function logScheduleOutcome(logger: Logger, scheduleId: string, owner: string, outcome: ScheduleOutcome): void {
  if (outcome.decision === "leave") {
    logger.info(
      { scheduleId, owner, storedOwner: outcome.stored?.owner, storedTaskQueue: outcome.stored?.taskQueue },
      "schedule owned by another deployment: left alone",
    );
  } else {
    logger.info({ scheduleId, owner, decision: outcome.decision }, "schedule ensured");
  }
}
