import { describe, expect, it } from "vitest";
import { EVENT_TYPE_OF, eventTypeOf, subscribes, WEBHOOK_EVENT_TYPES } from "../../../src/domain/webhooks/event-types.js";
import { checkEventTypes } from "../../../src/domain/webhooks/endpoint.js";
import { AppError } from "../../../src/domain/errors.js";

describe("event names: audit actions in lower dotted form", () => {
  it.each([
    ["UPLOAD_COMPLETED", "upload.completed"],
    ["SCAN_FAILED", "scan.failed"],
    ["DOWNLOAD_URL_ISSUED", "download_url.issued"],
    ["OBJECT_EXPIRED", "object.expired"],
    ["HOLD_PLACED", "hold.placed"],
    ["AUDIT_CHECKPOINT_SIGNED", "audit_checkpoint.signed"],
  ])("%s is %s", (action, event) => {
    expect(eventTypeOf(action)).toBe(event);
  });

  it("every action follows the rule: the last word is the verb after the dot", () => {
    for (const [action, event] of Object.entries(EVENT_TYPE_OF)) {
      const words = action.toLowerCase().split("_");
      expect(event).toBe(`${words.slice(0, -1).join("_")}.${words.at(-1)}`);
    }
  });

  it("names are unique, one per action", () => {
    expect(new Set(WEBHOOK_EVENT_TYPES).size).toBe(Object.keys(EVENT_TYPE_OF).length);
  });

  it("an action the table does not know has no event", () => {
    expect(eventTypeOf("SOMETHING_NEW")).toBeUndefined();
  });
});

describe("subscriptions", () => {
  it("an endpoint without event types receives every event", () => {
    expect(subscribes([], "scan.failed")).toBe(true);
  });

  it("an endpoint with event types receives only those", () => {
    expect(subscribes(["scan.passed"], "scan.passed")).toBe(true);
    expect(subscribes(["scan.passed"], "scan.failed")).toBe(false);
  });

  it("an unknown event type is refused with one violation per name", () => {
    const error = (() => {
      try {
        checkEventTypes(["scan.passed", "scan.exploded", "upload.done"]);
      } catch (e) {
        return e;
      }
    })() as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.reason).toBe("UNKNOWN_EVENT_TYPE");
    expect(error.violations.map((v) => v.field)).toEqual(["eventTypes[1]", "eventTypes[2]"]);
  });
});
