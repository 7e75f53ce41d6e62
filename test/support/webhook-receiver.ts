import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";
import { rest } from "./clients.js";

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  /** The parsed body, when its signature verified; undefined when it did not. */
  payload?: any;
  verifyError?: string;
  status: number;
  /** When the request's body had arrived, in milliseconds since the epoch (the header has whole seconds only). */
  receivedAt: number;
  /** As received, to verify with another secret too. */
  body: string;
  headers: Record<string, string>;
}

/**
 * A real receiver on 127.0.0.1 that verifies every request with the Standard Webhooks library,
 * as a customer's server would, and answers what `answer` says for the n-th request (1-based).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  secret = "";

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(answer: (n: number) => number = () => 200): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const status = answer(receiver!.received.length + 1);
        const entry: ReceivedWebhook = { id: headers["webhook-id"] ?? "", timestamp: headers["webhook-timestamp"] ?? "", status, receivedAt: Date.now(), body, headers };
        try {
          entry.payload = new Webhook(receiver!.secret).verify(body, headers);
        } catch (error) {
          entry.verifyError = (error as Error).message;
        }
        receiver!.received.push(entry);
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
    return receiver;
  }

  types(): string[] {
    return this.received.map((r) => r.payload?.type);
  }

  /** `explain` adds what the stack knows to the error when the wait ends without the webhooks. */
  async waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs = 30_000, explain?: () => Promise<string>): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > deadline) {
        const known = explain ? `\n${await explain().catch((error: unknown) => `(no diagnosis: ${String(error)})`)}` : "";
        throw new Error(`webhooks not received in time; got ${JSON.stringify(this.received)}${known}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return this.received;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Registers the receiver's URL as an endpoint of the token's tenant and hands it the secret. */
export async function subscribe(token: string, target: WebhookReceiver, eventTypes: string[] = []) {
  const res = await rest("POST", "/api/v1/webhook-endpoints", { token, body: { url: target.url, eventTypes } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  target.secret = res.body.secret;
  return res.body.webhookEndpoint;
}
