import { describe, expect, it } from "vitest";
import { builtLine, fitToWidth, formatElapsed, progressDue, statusText, type RunningBuild } from "../../../src/stack/build-progress.js";
import { statusLine } from "../../../src/stack/status-line.js";

const temporal: RunningBuild = { name: "temporal", command: "go install github.com/temporalio/cli/cmd/temporal@v1.5.1", startedAt: 1_000 };
const minio: RunningBuild = { name: "minio", command: "go install github.com/minio/minio@latest", startedAt: 21_000 };

describe("formatElapsed", () => {
  it("shows seconds, then minutes and seconds, then hours", () => {
    expect(formatElapsed(0)).toBe("0s");
    expect(formatElapsed(7_900)).toBe("7s");
    expect(formatElapsed(83_000)).toBe("1m 23s");
    expect(formatElapsed(3_725_000)).toBe("1h 2m 5s");
    expect(formatElapsed(-5)).toBe("0s");
  });
});

describe("progressDue", () => {
  it("rewrites a terminal's line every second but logs a line every 30 s at most", () => {
    expect(progressDue("terminal", 0, 999)).toBe(false);
    expect(progressDue("terminal", 0, 1_000)).toBe(true);
    expect(progressDue("log", 0, 1_000)).toBe(false);
    expect(progressDue("log", 0, 29_999)).toBe(false);
    expect(progressDue("log", 0, 30_000)).toBe(true);
  });
});

describe("statusText", () => {
  it("names the tool, its go command and the time so far", () => {
    expect(statusText([temporal], 84_000)).toBe("building temporal (go install github.com/temporalio/cli/cmd/temporal@v1.5.1) 1m 23s");
  });

  it("puts parallel builds on one line, by name", () => {
    expect(statusText([temporal, minio], 84_000)).toBe("building temporal 1m 23s, minio 1m 3s");
  });

  it("is empty when nothing builds, which clears the line", () => {
    expect(statusText([], 84_000)).toBe("");
  });
});

describe("builtLine", () => {
  it("gives the total time", () => {
    expect(builtLine("temporal", "/p/.tools/bin/temporal", 1_000, 484_000)).toBe("built temporal in 8m 3s: /p/.tools/bin/temporal");
  });
});

describe("fitToWidth", () => {
  it("keeps the line shorter than the terminal, so that it does not wrap", () => {
    expect(fitToWidth("building temporal", 10)).toBe("building…");
    expect(fitToWidth("building", 10)).toBe("building");
    expect(fitToWidth("building temporal", undefined)).toBe("building temporal");
  });
});

describe("statusLine", () => {
  function fakeTerminal(columns: number) {
    const writes: string[] = [];
    const stream = { columns, write: (text: string) => writes.push(text) > 0 } as unknown as NodeJS.WriteStream;
    return { writes, line: statusLine(stream) };
  }

  it("rewrites the line in place and prints log lines above it", () => {
    const { writes, line } = fakeTerminal(80);
    line.show("building temporal 1s");
    line.show("building temporal 2s");
    line.log("MinIO: ready");
    line.show("");
    line.log("built temporal");
    expect(writes).toEqual([
      "\r\x1b[Kbuilding temporal 1s",
      "\r\x1b[Kbuilding temporal 2s",
      "\r\x1b[KMinIO: ready\n",
      "\r\x1b[Kbuilding temporal 2s",
      "\r\x1b[K",
      "\r\x1b[Kbuilt temporal\n",
    ]);
  });

  it("cuts the status line to the terminal's width", () => {
    const { writes, line } = fakeTerminal(10);
    line.show("building temporal");
    expect(writes).toEqual(["\r\x1b[Kbuilding…"]);
  });
});
