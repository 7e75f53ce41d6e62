/**
 * The connection and call bounds: bounded production defaults, shortened through the
 * environment, and combinations that would cut calls the service must serve refused at start.
 */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.js";
import { parseConfig } from "../../../src/config/config.js";
import type { Env } from "../../../src/config/env.js";
import { SAFE_MODE_ENV } from "../../support/config-env.js";

const env = SAFE_MODE_ENV;

function refusedVariable(overrides: Env): string {
  try {
    parseConfig({ ...env, ...overrides });
  } catch (error) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

describe("connection and call limits", () => {
  it("are all bounded by default", () => {
    const config = parseConfig(env);
    expect(config.http).toEqual({
      firstByteTimeoutSeconds: 10,
      headersTimeoutSeconds: 15,
      requestTimeoutSeconds: 60,
      keepAliveTimeoutSeconds: 5,
      unreadBodyLingerSeconds: 5,
      idleTimeoutSeconds: 120,
      maxConnections: 4096,
      maxHeaderBytes: 16_384,
      http2: { sessionIdleTimeoutSeconds: 60, settingsTimeoutSeconds: 10, pingIntervalSeconds: 30, pingTimeoutSeconds: 10, maxConcurrentStreams: 100, maxSessionMemoryMegabytes: 10 },
    });
    expect(config.database).toEqual({ statementTimeoutSeconds: 30, idleInTransactionTimeoutSeconds: 60, poolMax: 10, auditHashChain: true });
    expect(config.storage).toMatchObject({ connectTimeoutSeconds: 5, requestTimeoutSeconds: 30, socketIdleTimeoutSeconds: 30, maxSockets: 50, maxAttempts: 2 });
  });

  it("are shortened through the environment", () => {
    const config = parseConfig({ ...env, HTTP_FIRST_BYTE_TIMEOUT_SECONDS: "1", HTTP2_SESSION_IDLE_TIMEOUT_SECONDS: "2", STORAGE_REQUEST_TIMEOUT_SECONDS: "3" });
    expect([config.http.firstByteTimeoutSeconds, config.http.http2.sessionIdleTimeoutSeconds, config.storage.requestTimeoutSeconds]).toEqual([1, 2, 3]);
  });

  it("refuses a request timeout shorter than the headers timeout", () => {
    expect(refusedVariable({ HTTP_HEADERS_TIMEOUT_SECONDS: "20", HTTP_REQUEST_TIMEOUT_SECONDS: "10" })).toBe("HTTP_REQUEST_TIMEOUT_SECONDS");
  });

  it("refuses an idle timeout that would cut CompleteUpload while it waits for the scan", () => {
    expect(refusedVariable({ COMPLETE_WAIT_TIMEOUT_SECONDS: "30", HTTP_IDLE_TIMEOUT_SECONDS: "30" })).toBe("HTTP_IDLE_TIMEOUT_SECONDS");
  });

  it("refuses a zero timeout, which would mean none", () => {
    expect(refusedVariable({ HTTP_FIRST_BYTE_TIMEOUT_SECONDS: "0" })).toBe("HTTP_FIRST_BYTE_TIMEOUT_SECONDS");
  });
});
