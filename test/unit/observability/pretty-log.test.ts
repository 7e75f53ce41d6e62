import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { formatLogLine, prettyDestination } from "../../../src/pretty-log.js";

/** What pino writes, through the pretty destination, as the terminal would show it. */
function logged(write: (logger: pino.Logger) => void): string {
  let out = "";
  const sink = { write: (chunk: string) => (out += chunk) } as unknown as NodeJS.WritableStream;
  const logger = pino({ level: "info", name: "api", base: { service: "api" }, timestamp: pino.stdTimeFunctions.isoTime }, prettyDestination(sink));
  write(logger);
  return out;
}

describe("pretty log lines", () => {
  it("shows time, level, message and fields, without the fields every line carries", () => {
    const out = logged((logger) => logger.info({ requestId: "r-1", path: "/api/v1/files", status: 200, note: "two words" }, "request"));
    expect(out).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  request requestId=r-1 path=\/api\/v1\/files status=200 note="two words"\n$/);
    expect(out).not.toContain("service");
    expect(out).not.toContain("{");
  });

  it("puts an error's stack under its line", () => {
    const out = logged((logger) => logger.error({ err: new Error("boom") }, "unhandled error"));
    const [line, stack] = out.split("\n");
    expect(line).toMatch(/ERROR unhandled error$/);
    expect(stack).toBe("    Error: boom");
  });

  it("passes a line that is not JSON through", () => {
    expect(formatLogLine("plain text\n")).toBe("plain text");
  });
});
