import { condition, continueAsNew, defineQuery, defineSignal, setHandler, workflowInfo } from "@temporalio/workflow";
import { WEBHOOK_DISPATCHER_ROUNDS, WEBHOOK_DISPATCHER_WAKE, type WebhookDispatcherInput } from "./activities/webhook-types.js";
import { dispatchRound } from "./webhook-dispatch.js";

export const wakeSignal = defineSignal<[]>(WEBHOOK_DISPATCHER_WAKE);
export const roundsQuery = defineQuery<number>(WEBHOOK_DISPATCHER_ROUNDS);

/**
 * The deployment's webhook dispatcher, one long-lived workflow woken by signals (signal-with-start
 * from the worker that LISTENs for new audit entries and ended deliveries): it makes dispatch
 * rounds while there is work, then waits for the next signal. No timer: on an idle stack it
 * waits without a single event. Signals that arrive during a round make one more round, not one
 * each. After `maxRounds` rounds, or when Temporal suggests it, it continues as new, carrying a
 * wake-up that is still pending.
 */
export async function webhookDispatcher(input: WebhookDispatcherInput): Promise<void> {
  let woken = input.woken;
  let rounds = 0;
  setHandler(wakeSignal, () => {
    woken = true;
  });
  setHandler(roundsQuery, () => input.roundsBefore + rounds);
  while (rounds < input.maxRounds && !workflowInfo().continueAsNewSuggested) {
    await condition(() => woken);
    woken = false;
    const round = await dispatchRound(input);
    rounds++;
    // Stopped at maxBatches with work left: nobody else will signal for it.
    if (!round.complete) woken = true;
  }
  await continueAsNew<typeof webhookDispatcher>({ ...input, woken, roundsBefore: input.roundsBefore + rounds });
}
