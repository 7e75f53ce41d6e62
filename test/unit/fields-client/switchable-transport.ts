import { Code, ConnectError, type Transport } from "@connectrpc/connect";

/** A transport that counts unary calls and fails them all while `offline`, as a lost network does. */
export function switchable(inner: Transport): Transport & { calls: number; offline: boolean } {
  const transport = {
    calls: 0,
    offline: false,
    unary(...args: Parameters<Transport["unary"]>) {
      transport.calls++;
      if (transport.offline) return Promise.reject(new ConnectError("network is off", Code.Unavailable));
      return inner.unary(...args);
    },
    stream(...args: Parameters<Transport["stream"]>) {
      return inner.stream(...args);
    },
  };
  return transport as Transport & { calls: number; offline: boolean };
}
