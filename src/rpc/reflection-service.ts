import { create, createMutableRegistry, toBinary, type DescFile, type DescService, type Registry } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, type ConnectRouter } from "@connectrpc/connect";
import * as v1 from "../../gen/grpc/reflection/v1/reflection_pb.js";
import * as v1alpha from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";

/**
 * gRPC server reflection (grpc.reflection.v1, and v1alpha for older clients), so `grpcurl` and
 * `buf curl` call the API without the proto files. It describes exactly what the router serves:
 * the services are read from the router's handlers when the first request arrives, after every
 * service is registered. Like health, it carries no tenant data and needs no token.
 */
export function registerReflectionService(router: ConnectRouter): void {
  let index: ReflectionIndex | undefined;
  const indexNow = () => (index ??= reflectionIndex(uniqueServices(router)));
  router.service(v1.ServerReflection, {
    async *serverReflectionInfo(requests) {
      for await (const request of requests) yield create(v1.ServerReflectionResponseSchema, { ...answer(indexNow(), request), originalRequest: request });
    },
  });
  router.service(v1alpha.ServerReflection, {
    async *serverReflectionInfo(requests) {
      for await (const request of requests) yield create(v1alpha.ServerReflectionResponseSchema, { ...answer(indexNow(), request), originalRequest: request });
    },
  });
}

interface ReflectionIndex {
  services: string[];
  /** By file name with its .proto suffix, as reflection clients ask for it. */
  files: Map<string, DescFile>;
  types: Registry;
}

function uniqueServices(router: ConnectRouter): DescService[] {
  const byName = new Map(router.handlers.map((h) => [h.service.typeName, h.service]));
  return [...byName.values()];
}

function reflectionIndex(services: DescService[]): ReflectionIndex {
  const files = new Map<string, DescFile>();
  for (const { file } of services) for (const f of [file, ...transitiveDependencies(file)]) files.set(f.proto.name, f);
  return { services: services.map((s) => s.typeName).sort(), files, types: createMutableRegistry(...files.values()) };
}

/** The request and response shapes of v1 and v1alpha are the same; only the package differs. */
type Request = v1.ServerReflectionRequest | v1alpha.ServerReflectionRequest;

function answer(index: ReflectionIndex, request: Request) {
  const base = { validHost: request.host };
  const { messageRequest } = request;
  switch (messageRequest.case) {
    case "listServices":
      return { ...base, messageResponse: { case: "listServicesResponse" as const, value: { service: index.services.map((name) => ({ name })) } } };
    case "fileByFilename":
      return withFile(base, index.files.get(messageRequest.value), `file ${messageRequest.value}`);
    case "fileContainingSymbol":
      return withFile(base, fileOfSymbol(index.types, messageRequest.value), `symbol ${messageRequest.value}`);
    case "fileContainingExtension":
    case "allExtensionNumbersOfType":
      // The API declares no extensions of its own messages.
      return notFound(base, "extensions are not served by reflection");
    default:
      return { ...base, messageResponse: { case: "errorResponse" as const, value: { errorCode: Code.InvalidArgument, errorMessage: "unknown reflection request" } } };
  }
}

function withFile<B>(base: B, file: DescFile | undefined, what: string) {
  if (!file) return notFound(base, `${what} not found`);
  const files = [file, ...transitiveDependencies(file)];
  return { ...base, messageResponse: { case: "fileDescriptorResponse" as const, value: { fileDescriptorProto: files.map((f) => toBinary(FileDescriptorProtoSchema, f.proto)) } } };
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
