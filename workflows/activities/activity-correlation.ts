import { Context } from "@temporalio/activity";

/**
 * The correlation id of a step no request started (a timer, the sweep): the workflow run that
 * scheduled this activity. The same on every retry of the activity, so an entry written once per
 * cause stays written once.
 */
export function workflowCorrelation(): string {
  const { workflowExecution, activityId } = Context.current().info;
  // Always set for an activity a workflow scheduled; a standalone activity has only its own id.
  return workflowExecution ? `workflow:${workflowExecution.workflowId}/${workflowExecution.runId}` : `activity:${activityId}`;
}

