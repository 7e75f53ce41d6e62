/**
 * Typed clients of the services (files, audit, custom fields, customers, products) for browsers, over the Connect protocol (JSON over HTTP/1.1
 * or HTTP/2 through `fetch`). Nothing here needs Node, so this file is also the
 * transport-independent part that the Node clients (node.ts) reuse.
 */
import { createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { CustomersService } from "@files-and-fields/client/gen/customers/v1/customers_service_pb.js";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { AuditService } from "@files-and-fields/client/gen/filestorage/v1/audit_service_pb.js";
import { ProductsService } from "@files-and-fields/client/gen/products/v1/products_service_pb.js";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";

export interface ApiClients {
  files: Client<typeof FileStorageService>;
  audit: Client<typeof AuditService>;
  fields: Client<typeof CustomFieldsService>;
  customers: Client<typeof CustomersService>;
  products: Client<typeof ProductsService>;
}

/** A bearer token, or a function asked before every call (for tokens that are refreshed). */
export type TokenSource = string | (() => string | Promise<string>);

export interface ClientOptions {
  /** Where the API listens, e.g. https://files.example.com (the RPC paths are appended). */
  baseUrl: string;
  token: TokenSource;
}

export function bearerInterceptor(token: TokenSource): Interceptor {
  return (next) => async (req) => {
    req.header.set("authorization", `Bearer ${typeof token === "function" ? await token() : token}`);
    return next(req);
  };
}

export function clientsOver(transport: Transport): ApiClients {
  return {
    files: createClient(FileStorageService, transport),
    audit: createClient(AuditService, transport),
    fields: createClient(CustomFieldsService, transport),
    customers: createClient(CustomersService, transport),
    products: createClient(ProductsService, transport),
  };
}

/**
 * The API sends no CORS headers: serve the page from the API's origin, or put both behind one
 * reverse proxy. The JSON format keeps requests readable in the browser's network panel.
 */
export function createBrowserClients(options: ClientOptions): ApiClients {
  return clientsOver(createConnectTransport({ baseUrl: options.baseUrl, interceptors: [bearerInterceptor(options.token)] }));
}
