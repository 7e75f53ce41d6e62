import { createContextKey, createContextValues, type ContextValues } from "@connectrpc/connect";

/** The caller's remote address as the socket saw it ("unknown" off a socket, as in memory). */
export const clientAddressKey = createContextKey<string>("unknown", { description: "client address" });

/** For the RPC handler's `contextValues` (src/rpc/front-door/rpc-handler.ts): each call knows the address it came from. */
export function clientAddressValues(req: { socket?: { remoteAddress?: string } | null }): ContextValues {
  return createContextValues().set(clientAddressKey, req.socket?.remoteAddress ?? "unknown");
}
