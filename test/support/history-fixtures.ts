import { temporal } from "@temporalio/proto";

const History = temporal.api.history.v1.History;

/** A workflow history as committed JSON: 64-bit numbers and enums as strings, bytes as base64. */
export function historyFixtureJson(history: unknown): string {
  const message = History.fromObject(history as Record<string, unknown>);
  return `${JSON.stringify(History.toObject(message, { longs: String, enums: String, bytes: String }), null, 1)}\n`;
}

export function historyFromFixture(json: string): temporal.api.history.v1.History {
  return History.fromObject(JSON.parse(json));
}
