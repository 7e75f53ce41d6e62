import { describe, expect, it } from "vitest";
import { checkClassRules, normalizeContentType } from "../../../packages/client/src/browser-uploader/class-rules.js";
import { objectClasses } from "../../../src/domain/files/object-classes.js";

const file = (type: string, size = 100) => ({ name: "f", type, size });
const reasonOf = (run: () => void) => {
  try {
    run();
    return "accepted";
  } catch (error) {
    return (error as { reason: string }).reason;
  }
};

describe("class rules in the browser", () => {
  it("accepts every allowed type of every class at the class maximum", () => {
    for (const rules of Object.values(objectClasses)) {
      for (const type of rules.allowedContentTypes) {
        expect(reasonOf(() => checkClassRules(rules.name, file(type, rules.maxSizeBytes)))).toBe("accepted");
      }
    }
  });

  it.each([
    ["USER_PROFILE_PHOTO", "application/pdf", 10, "CONTENT_TYPE_NOT_ALLOWED"],
    ["IMPORT_FILE", "image/png", 10, "CONTENT_TYPE_NOT_ALLOWED"],
    ["GENERAL_DOCUMENT", "", 10, "CONTENT_TYPE_NOT_ALLOWED"],
    ["CUSTOMER_SIGNATURE", "image/png", 2 * 1024 * 1024 + 1, "FILE_TOO_LARGE"],
    ["IMPORT_FILE", "text/csv", 50 * 1024 * 1024 + 1, "FILE_TOO_LARGE"],
    ["GENERAL_DOCUMENT", "image/png", 0, "EMPTY_FILE"],
    ["PASSPORT", "image/png", 10, "UNKNOWN_OBJECT_CLASS"],
    ["toString", "image/png", 10, "UNKNOWN_OBJECT_CLASS"],
  ])("%s with %s (%d bytes) → %s", (objectClass, type, size, reason) => {
    expect(reasonOf(() => checkClassRules(objectClass, file(type, size)))).toBe(reason);
  });

  it("compares types without case and parameters", () => {
    expect(normalizeContentType(" Text/CSV; charset=utf-8")).toBe("text/csv");
    expect(reasonOf(() => checkClassRules("IMPORT_FILE", file("Text/CSV; charset=utf-8")))).toBe("accepted");
  });
});
