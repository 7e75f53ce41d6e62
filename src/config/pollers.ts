/**
 * Polls held open. Autoscaling: never fewer than `minimum`, `initial` until the server suggests
 * scaling (a server that never does keeps `initial`), never more than `maximum`, on each workflow
 * queue (the normal one every upload's first task arrives on, and the sticky one). Otherwise a
 * simple maximum of `maximum` polls, which sdk-core splits a fifth to the normal queue.
 */
import { ConfigError } from "./config-error.js";
import type { Env } from "./env.js";
import { boolean, integer, optional } from "./env-values.js";

export interface PollerSettings {
  autoscaling: boolean;
  minimum: number;
  initial: number;
  maximum: number;
}

/**
 * Workflow tasks: a simple maximum by default. Autoscaling (two polls at least on the normal
 * queue, half the slots each to start) dispatched new uploads faster on an idle worker, but under
 * 200 concurrent uploads on two cores it took first workflow tasks the worker could not finish
 * within the 10 s task timeout, and sdk-core then logged "Trying to send a new WFT for a run which
 * already has one" (load.test.ts on the real server): tasks waiting in the server's queue cost
 * nothing, tasks waiting in a saturated worker time out. So it is opt-in until measured per host.
 */
export const workflowPollerDefaults = (slots: number) => ({ autoscaling: false, minimum: 2, initial: Math.floor(slots / 2) });
/** Autoscaling from as many as the SDK's fixed default, min(10, slots); activities have no task timeout of that kind. */
export const activityPollerDefaults = (slots: number) => ({ autoscaling: true, minimum: 1, initial: Math.min(10, slots) });

type PollerDefaults = ReturnType<typeof workflowPollerDefaults>;

/** What `pollers` gives when nothing is configured: the defaults, within `slots`. */
export function derivedPollers(slots: number, defaults: PollerDefaults): PollerSettings {
  const minimum = Math.min(defaults.minimum, slots);
  return { autoscaling: defaults.autoscaling, minimum, initial: Math.min(Math.max(defaults.initial, minimum), slots), maximum: slots };
}

/**
 * `${prefix}_MIN`, `_INITIAL` and `_MAX`, at most `slots`: each poll holds a slot while it waits.
 * `retired` is refused rather than ignored: @temporalio/worker 1.24 never read it, and whoever
 * set it expects it to matter.
 */
export function pollers(env: Env, prefix: string, retired: string, slots: number, defaults: PollerDefaults): PollerSettings {
  if (optional(env, retired) !== undefined) throw new ConfigError(retired, `is no longer read (it never reached the SDK); use ${prefix}_MIN, _INITIAL and _MAX`);
  const minimum = integer(env, `${prefix}_MIN`, Math.min(defaults.minimum, slots));
  const maximum = integer(env, `${prefix}_MAX`, slots);
  const initial = integer(env, `${prefix}_INITIAL`, Math.min(Math.max(defaults.initial, minimum), maximum));
  if (maximum > slots) throw new ConfigError(`${prefix}_MAX`, `must be at most the matching concurrent executions (${slots})`);
  if (minimum > maximum) throw new ConfigError(`${prefix}_MIN`, `must be at most ${prefix}_MAX (${maximum})`);
  if (initial < minimum || initial > maximum) throw new ConfigError(`${prefix}_INITIAL`, `must be between ${prefix}_MIN (${minimum}) and ${prefix}_MAX (${maximum})`);
  return { autoscaling: boolean(env, `${prefix}_AUTOSCALING`, defaults.autoscaling), minimum, initial, maximum };
}
