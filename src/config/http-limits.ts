/**
 * Bounds on the API's connections, so that slow or silent clients cannot hold them (slow-loris):
 * src/rpc/http-server.ts applies them to HTTP/1.1 and HTTP/2 alike where both have the notion.
 */
import { ConfigError } from "./config-error.js";
import type { Env } from "./env.js";
import { integer } from "./env-values.js";

export interface HttpLimitsConfig {
  /** A connection that has not sent its first byte by then is closed. */
  firstByteTimeoutSeconds: number;
  /** HTTP/1.1: the request line and headers must have arrived by then. */
  headersTimeoutSeconds: number;
  /** The whole request (headers and body) must have arrived by then; answers may take longer. */
  requestTimeoutSeconds: number;
  /** HTTP/1.1: an idle keep-alive connection between calls. */
  keepAliveTimeoutSeconds: number;
  /** HTTP/1.1: the rest of a body answered unread (over a limit) is read and dropped this long, then the connection is closed (src/rpc/unread-body.ts). */
  unreadBodyLingerSeconds: number;
  /** No byte either way while a call is open (a reader that stopped reading a stream). */
  idleTimeoutSeconds: number;
  maxConnections: number;
  /** HTTP/1.1 header bytes; for HTTP/2 the SETTINGS_MAX_HEADER_LIST_SIZE. */
  maxHeaderBytes: number;
  http2: {
    /** A session without open streams is closed (GOAWAY) after this long. */
    sessionIdleTimeoutSeconds: number;
    /** The client must acknowledge the server's SETTINGS by then (RFC 9113 §6.5.3). */
    settingsTimeoutSeconds: number;
    /** A session with open streams, all quiet, is sent a PING this often (src/rpc/http2-pings.ts)... */
    pingIntervalSeconds: number;
    /** ...and closed when one is not answered by then: a quiet call lasts as long as its client. */
    pingTimeoutSeconds: number;
    maxConcurrentStreams: number;
    maxSessionMemoryMegabytes: number;
  };
}

/**
 * No request of this API carries file bytes, so 256 KiB holds every legitimate one with room to
 * spare (500 select options at their bounds, a record with twenty 10,000-character texts). It is
 * also what keeps decoding inside the per-request budget: a body of 1 MiB with 50,000 map entries
 * cost protobuf-es about 50-100 ms to decode before any check could refuse it.
 */
export const DEFAULT_MAX_REQUEST_BODY_BYTES = 256 * 1024;

/** `completeWaitSeconds`: the longest quiet call (CompleteUpload waiting for its scan) must fit in the idle bound. */
export function parseHttpLimits(env: Env, completeWaitSeconds: number): HttpLimitsConfig {
  const headersTimeoutSeconds = integer(env, "HTTP_HEADERS_TIMEOUT_SECONDS", 15);
  const requestTimeoutSeconds = integer(env, "HTTP_REQUEST_TIMEOUT_SECONDS", 60);
  if (requestTimeoutSeconds < headersTimeoutSeconds) throw new ConfigError("HTTP_REQUEST_TIMEOUT_SECONDS", "must be at least HTTP_HEADERS_TIMEOUT_SECONDS");
  const idleTimeoutSeconds = integer(env, "HTTP_IDLE_TIMEOUT_SECONDS", 120);
  if (idleTimeoutSeconds <= completeWaitSeconds) throw new ConfigError("HTTP_IDLE_TIMEOUT_SECONDS", "must be longer than COMPLETE_WAIT_TIMEOUT_SECONDS");
  return {
    firstByteTimeoutSeconds: integer(env, "HTTP_FIRST_BYTE_TIMEOUT_SECONDS", 10),
    headersTimeoutSeconds,
    requestTimeoutSeconds,
    keepAliveTimeoutSeconds: integer(env, "HTTP_KEEP_ALIVE_TIMEOUT_SECONDS", 5),
    unreadBodyLingerSeconds: integer(env, "HTTP_UNREAD_BODY_LINGER_SECONDS", 5),
    idleTimeoutSeconds,
    maxConnections: integer(env, "HTTP_MAX_CONNECTIONS", 4096),
    maxHeaderBytes: integer(env, "HTTP_MAX_HEADER_BYTES", 16_384, 1024),
    http2: {
      sessionIdleTimeoutSeconds: integer(env, "HTTP2_SESSION_IDLE_TIMEOUT_SECONDS", 60),
      settingsTimeoutSeconds: integer(env, "HTTP2_SETTINGS_TIMEOUT_SECONDS", 10),
      pingIntervalSeconds: integer(env, "HTTP2_PING_INTERVAL_SECONDS", 30),
      pingTimeoutSeconds: integer(env, "HTTP2_PING_TIMEOUT_SECONDS", 10),
      maxConcurrentStreams: integer(env, "HTTP2_MAX_CONCURRENT_STREAMS", 100),
      maxSessionMemoryMegabytes: integer(env, "HTTP2_MAX_SESSION_MEMORY_MB", 10),
    },
  };
}
