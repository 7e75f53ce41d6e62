import { CancelledError } from "./errors.js";

/** Time, injectable so the state machine runs in unit tests without real waiting. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with CancelledError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const browserClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError());
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new CancelledError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/**
 * Whether the browser is online, and a way to wait for it. The queue starts nothing while
 * offline; a running upload waits for the network before a retry instead of spending attempts.
 */
export interface NetworkStatus {
  isOnline(): boolean;
  /** Calls `listener` on every change; returns the function that stops listening. */
  subscribe(listener: (online: boolean) => void): () => void;
}

/** `navigator.onLine` with the window's `online` / `offline` events. */
export function browserNetwork(): NetworkStatus {
  return {
    isOnline: () => navigator.onLine,
    subscribe(listener) {
      const online = () => listener(true);
      const offline = () => listener(false);
      window.addEventListener("online", online);
      window.addEventListener("offline", offline);
      return () => {
        window.removeEventListener("online", online);
        window.removeEventListener("offline", offline);
      };
    },
  };
}

export const alwaysOnline: NetworkStatus = { isOnline: () => true, subscribe: () => () => undefined };

/** Resolves when `network` is online (at once if it is), rejects with CancelledError on abort. */
export function waitUntilOnline(network: NetworkStatus, signal?: AbortSignal): Promise<void> {
  if (network.isOnline()) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const stop = network.subscribe((online) => {
      if (!online) return;
      finish();
      resolve();
    });
    const onAbort = () => {
      finish();
      reject(new CancelledError());
    };
    const finish = () => {
      stop();
      signal?.removeEventListener("abort", onAbort);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
