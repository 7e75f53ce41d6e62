/**
 * Typed clients of the three services for Node: gRPC over HTTP/2 by default (one multiplexed
 * connection, binary Protobuf); `protocol: "connect"` speaks Connect over HTTP/1.1 instead, for
 * networks whose proxies or load balancers do not pass HTTP/2 cleartext.
 */
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { bearerInterceptor, clientsOver, type ApiClients, type ClientOptions } from "./browser.js";

export type { ApiClients, ClientOptions, TokenSource } from "./browser.js";

export interface NodeClientOptions extends ClientOptions {
  protocol?: "grpc" | "connect";
}

export function createNodeClients(options: NodeClientOptions): ApiClients {
  const interceptors = [bearerInterceptor(options.token)];
  const transport =
    options.protocol === "connect"
      ? createConnectTransport({ baseUrl: options.baseUrl, httpVersion: "1.1", interceptors })
      : createGrpcTransport({ baseUrl: options.baseUrl, interceptors });
  return clientsOver(transport);
}
