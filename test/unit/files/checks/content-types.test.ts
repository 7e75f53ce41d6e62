import { describe, expect, it } from "vitest";
import { CONTENT_TYPES, canonicalContentType } from "../../../../src/domain/files/checks/content-types.js";

describe("canonicalContentType", () => {
  it.each(Object.values(CONTENT_TYPES))("accepts canonical %s", (type) => {
    expect(canonicalContentType(type)).toBe(type);
  });

  it.each([
    ["IMAGE/PNG", "image/png"],
    [" image/png ", "image/png"],
    ["text/csv; charset=utf-8", "text/csv"],
    ["Image/SVG+XML;charset=UTF-8", "image/svg+xml"],
    ["image/jpg", "image/jpeg"],
  ])("normalizes %j to %s", (declared, expected) => {
    expect(canonicalContentType(declared)).toBe(expected);
  });

  it.each(["", "image/gif", "text/html", "application/csv", "text/x-csv", "application/zip", "image/png, text/html", "image", "image/png/x"])(
    "refuses %j",
    (declared) => {
      expect(canonicalContentType(declared)).toBeUndefined();
    },
  );
});
