import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { inject } from "vitest";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { CustomersService } from "@files-and-fields/client/gen/customers/v1/customers_service_pb.js";

export { tokenFor } from "./tokens.js";

export const apiUrl = () => inject("apiUrl");

export type Protocol = "grpc" | "connect" | "grpc-web";

function bearer(token: string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
}

export function transportFor(protocol: Protocol, token?: string) {
  const interceptors = token ? [bearer(token)] : [];
  const baseUrl = apiUrl();
  if (protocol === "grpc") return createGrpcTransport({ baseUrl, interceptors });
  if (protocol === "grpc-web") return createGrpcWebTransport({ baseUrl, httpVersion: "1.1", interceptors });
  return createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors });
}

export interface Clients {
  files: Client<typeof FileStorageService>;
  fields: Client<typeof CustomFieldsService>;
  customers: Client<typeof CustomersService>;
}

export function clientsFor(protocol: Protocol, token?: string): Clients {
  const transport = transportFor(protocol, token);
  return {
    files: createClient(FileStorageService, transport),
    fields: createClient(CustomFieldsService, transport),
    customers: createClient(CustomersService, transport),
  };
}

export interface RestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** The JSON HTTP API, through fetch, as a browser or curl would call it. */
export async function rest<T = any>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<RestResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(`${apiUrl()}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

export function uniqueTenant(prefix = "t"): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}
