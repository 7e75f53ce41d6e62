import type { StreamResponse } from "@connectrpc/connect";

/** How a streamed answer ended: every message sent, an error, or the reader stopped reading. */
export type StreamEnd = { kind: "done" } | { kind: "failed"; error: unknown } | { kind: "abandoned" };

interface StreamHooks {
  /** Answers the error the caller receives instead of the one thrown. */
  onError?(error: unknown): unknown;
  onEnd?(end: StreamEnd): void;
}

/**
 * A streamed response whose messages are watched as they are sent. An interceptor's `next`
 * answers a server stream before its handler ran (an async generator runs as it is read), so an
 * error thrown while streaming passes by the interceptor's own try/catch: only the messages'
 * iterator sees it.
 */
export function watchStream<R extends StreamResponse>(res: R, hooks: StreamHooks): R {
  return { ...res, message: watched(res.message, hooks) };
}

async function* watched<T>(messages: AsyncIterable<T>, hooks: StreamHooks): AsyncGenerator<T> {
  let end: StreamEnd = { kind: "abandoned" };
  try {
    yield* messages;
    end = { kind: "done" };
  } catch (error) {
    const answered = hooks.onError ? hooks.onError(error) : error;
    end = { kind: "failed", error: answered };
    throw answered;
  } finally {
    hooks.onEnd?.(end);
  }
}
