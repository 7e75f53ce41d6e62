import { Client, Connection, WorkflowExecutionAlreadyStartedError } from "@temporalio/client";
import { WorkflowIdReusePolicy } from "@temporalio/common";
import {
  WEBHOOK_DELIVERY_WORKFLOW,
  webhookWorkflowId,
  type WebhookDeliveryInput,
  type WebhookRetry,
} from "../../../workflows/activities/webhook-types.js";
import type { DeliveryRef } from "../../domain/webhooks/delivery.js";
import { TENANT_ID } from "../../../workflows/search-attributes.js";

/** Starts delivery workflows for the dispatcher; one workflow per delivery, ever. */
export class WebhookDeliveryClient {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly retry: WebhookRetry,
  ) {}

  static async connect(address: string, namespace: string, taskQueue: string, retry: WebhookRetry) {
    const connection = await Connection.connect({ address, connectTimeout: "5s" });
    return new WebhookDeliveryClient(new Client({ connection, namespace }), taskQueue, retry);
  }

  async start(ref: DeliveryRef): Promise<void> {
    try {
      await this.client.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
        taskQueue: this.taskQueue,
        workflowId: webhookWorkflowId(ref.deliveryId),
        // Even after the workflow ended: a delivery is attempted by one workflow only.
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        args: [{ ...ref, retry: this.retry } satisfies WebhookDeliveryInput],
        typedSearchAttributes: [{ key: TENANT_ID, value: ref.tenantId }],
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }

  async close(): Promise<void> {
    await this.client.connection.close();
  }
}
