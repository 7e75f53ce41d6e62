import { Client, Connection } from "@temporalio/client";
import {
  WEBHOOK_DISPATCHER_WAKE,
  WEBHOOK_DISPATCHER_WORKFLOW,
  webhookDispatcherId,
  type WebhookDispatcherInput,
} from "../../../workflows/activities/webhook-types.js";

/** The schedule that started a dispatch every few seconds before the dispatcher was woken by notifications. */
export const RETIRED_DISPATCH_SCHEDULE_ID = "webhook-dispatch";

/** Batches per round as the former schedule had them; rounds per run before continue-as-new. */
export const DISPATCHER_INPUT: Omit<WebhookDispatcherInput, "woken" | "roundsBefore"> = { batchSize: 200, maxBatches: 50, maxRounds: 200 };

/** Wakes the deployment's dispatcher workflow, starting it when it does not run (signal-with-start). */
export class WebhookDispatcherClient {
  private constructor(
    private readonly client: Client,
    private readonly workflowId: string,
    private readonly taskQueue: string,
  ) {}

  /** `deployment`: the main task queue, naming the dispatcher; `taskQueue`: the webhook queue it runs on. */
  static async connect(address: string, namespace: string, deployment: string, taskQueue: string): Promise<WebhookDispatcherClient> {
    const connection = await Connection.connect({ address, connectTimeout: "5s" });
    return new WebhookDispatcherClient(new Client({ connection, namespace }), webhookDispatcherId(deployment), taskQueue);
  }

  async wake(): Promise<void> {
    await this.client.workflow.signalWithStart(WEBHOOK_DISPATCHER_WORKFLOW, {
      workflowId: this.workflowId,
      taskQueue: this.taskQueue,
      args: [{ ...DISPATCHER_INPUT, woken: false, roundsBefore: 0 } satisfies WebhookDispatcherInput],
      signal: WEBHOOK_DISPATCHER_WAKE,
      signalArgs: [],
      staticSummary: "Webhook dispatcher: started by the first new audit entry or ended delivery after it was not running",
    });
  }

  async close(): Promise<void> {
    await this.client.connection.close();
  }
}
