import { create, createMutableRegistry, toBinary, type DescFile, type DescService, type Registry } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import * as v1 from "@files-and-fields/client/gen/grpc/reflection/v1/reflection_pb.js";
import { file_google_rpc_error_details } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import * as v1alpha from "@files-and-fields/client/gen/grpc/reflection/v1alpha/reflection_pb.js";
import { AppError } from "../domain/errors.js";
import { clientAddressKey } from "./client-address.js";
import { toConnectError } from "./errors.js";
import { TokenBuckets } from "./token-buckets.js";

/**
 * Who may reflect: by default any caller with a valid token (the auth interceptor checks it, no
 * permission needed). When the deployment makes reflection public, `allow` meters each request
 * by client address instead: every answer is kilobytes of descriptors for a 45-byte question.
 */
export type ReflectionAccess = { public: false } | { public: true; allow(clientAddress: string): boolean };

/** From the configuration (`Config.reflection`): a token bucket per client address when public. */
export function reflectionAccess(settings: { public: boolean; publicRequestsPerMinute: number }, now: () => number): ReflectionAccess {
  if (!settings.public) return { public: false };
  const buckets = new TokenBuckets({ capacity: settings.publicRequestsPerMinute, refillMs: 60_000, maxClients: 10_000, now });
  return { public: true, allow: (clientAddress) => buckets.take(clientAddress) };
}

/**
 * gRPC server reflection (grpc.reflection.v1, and v1alpha for older clients), so `grpcurl` and
 * `buf curl` call the API without the proto files. It describes exactly what the router serves:
 * the services are read from the router's handlers when the first request arrives, after every
 * service is registered, and every file is serialised then, once: an answer only copies bytes.
 */
export function registerReflectionService(router: ConnectRouter, access: ReflectionAccess = { public: false }): void {
  let index: ReflectionIndex | undefined;
  const indexNow = () => (index ??= reflectionIndex(uniqueServices(router)));
  const admit = (ctx: HandlerContext) => {
    if (access.public && !access.allow(ctx.values.get(clientAddressKey))) {
      // Thrown inside the stream, past the error interceptor: converted here.
      throw toConnectError(new AppError("RATE_LIMITED", "too many reflection requests from this address; retry later"));
    }
  };
  router.service(v1.ServerReflection, {
    async *serverReflectionInfo(requests, ctx) {
      for await (const request of requests) {
        admit(ctx);
        yield create(v1.ServerReflectionResponseSchema, { ...answer(indexNow(), request), originalRequest: request });
      }
    },
  });
  router.service(v1alpha.ServerReflection, {
    async *serverReflectionInfo(requests, ctx) {
      for await (const request of requests) {
        admit(ctx);
        yield create(v1alpha.ServerReflectionResponseSchema, { ...answer(indexNow(), request), originalRequest: request });
      }
    },
  });
}

interface ReflectionIndex {
  services: string[];
  /** By file name with its .proto suffix, as reflection clients ask for it. */
  files: Map<string, DescFile>;
  types: Registry;
  /** A file's answer: its serialised descriptor, then those of every file it imports. */
  answers: Map<string, Uint8Array[]>;
}

function uniqueServices(router: ConnectRouter): DescService[] {
  const byName = new Map(router.handlers.map((h) => [h.service.typeName, h.service]));
  return [...byName.values()];
}

/**
 * Files no service imports that a client still needs: every error carries its ErrorInfo (and a
 * refused field its BadRequest) as details, which grpcurl and buf curl decode only by reflection.
 */
const DETAIL_FILES: readonly DescFile[] = [file_google_rpc_error_details];

/** Exported for its test: the answers it holds are serialised here, once. */
export function reflectionIndex(services: DescService[]): ReflectionIndex {
  const files = new Map<string, DescFile>();
  for (const file of [...services.map((s) => s.file), ...DETAIL_FILES]) for (const f of [file, ...transitiveDependencies(file)]) files.set(f.proto.name, f);
  const encoded = new Map([...files.values()].map((f) => [f.name, toBinary(FileDescriptorProtoSchema, f.proto)]));
  const answers = new Map([...files.values()].map((f) => [f.name, [f, ...transitiveDependencies(f)].map((d) => encoded.get(d.name)!)]));
  return { services: services.map((s) => s.typeName).sort(), files, types: createMutableRegistry(...files.values()), answers };
}

/** The request and response shapes of v1 and v1alpha are the same; only the package differs. */
type Request = v1.ServerReflectionRequest | v1alpha.ServerReflectionRequest;

export function answer(index: ReflectionIndex, request: Request) {
  const base = { validHost: request.host };
  const { messageRequest } = request;
  switch (messageRequest.case) {
    case "listServices":
      return { ...base, messageResponse: { case: "listServicesResponse" as const, value: { service: index.services.map((name) => ({ name })) } } };
    case "fileByFilename":
      return withFile(base, index, index.files.get(messageRequest.value), `file ${messageRequest.value}`);
    case "fileContainingSymbol":
      return withFile(base, index, fileOfSymbol(index.types, messageRequest.value), `symbol ${messageRequest.value}`);
    case "fileContainingExtension":
    case "allExtensionNumbersOfType":
      // The API declares no extensions of its own messages.
      return notFound(base, "extensions are not served by reflection");
    default:
      return { ...base, messageResponse: { case: "errorResponse" as const, value: { errorCode: Code.InvalidArgument, errorMessage: "unknown reflection request" } } };
  }
}

function withFile<B>(base: B, index: ReflectionIndex, file: DescFile | undefined, what: string) {
  const fileDescriptorProto = file && index.answers.get(file.name);
  if (!fileDescriptorProto) return notFound(base, `${what} not found`);
  return { ...base, messageResponse: { case: "fileDescriptorResponse" as const, value: { fileDescriptorProto } } };
}

function notFound<B>(base: B, message: string) {
  return { ...base, messageResponse: { case: "errorResponse" as const, value: { errorCode: Code.NotFound, errorMessage: message } } };
}

/** Symbols are messages, enums, services or extensions; a method or field is found through its parent. */
function fileOfSymbol(registry: Registry, symbol: string): DescFile | undefined {
  const exact = registry.get(symbol);
  if (exact) return exact.file;
  const parent = registry.get(symbol.slice(0, Math.max(0, symbol.lastIndexOf("."))));
  return parent?.file;
}

function transitiveDependencies(file: DescFile): DescFile[] {
  const seen = new Map<string, DescFile>();
  const visit = (f: DescFile) => {
    for (const dep of f.dependencies) {
      if (seen.has(dep.name)) continue;
      seen.set(dep.name, dep);
      visit(dep);
    }
  };
  visit(file);
  seen.delete(file.name);
  return [...seen.values()];
}
