/** LOG_FORMAT: json or pretty, or unset for the logger to pick by stdout (src/logger.ts). */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.js";
import { parseConfig } from "../../../src/config/config.js";
import { SAFE_MODE_ENV } from "../../support/config-env.js";

describe("LOG_FORMAT", () => {
  it("is unset by default, so the logger picks by whether stdout is a terminal", () => {
    expect(parseConfig(SAFE_MODE_ENV).logFormat).toBeUndefined();
  });

  it("takes json or pretty", () => {
    expect(parseConfig({ ...SAFE_MODE_ENV, LOG_FORMAT: "json" }).logFormat).toBe("json");
    expect(parseConfig({ ...SAFE_MODE_ENV, LOG_FORMAT: " Pretty " }).logFormat).toBe("pretty");
  });

  it("refuses anything else, naming the variable", () => {
    expect(() => parseConfig({ ...SAFE_MODE_ENV, LOG_FORMAT: "xml" })).toThrow(ConfigError);
    expect(() => parseConfig({ ...SAFE_MODE_ENV, LOG_FORMAT: "xml" })).toThrow(/^LOG_FORMAT: must be json or pretty/);
  });
});
