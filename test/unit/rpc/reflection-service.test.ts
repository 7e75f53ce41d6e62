/**
 * Server reflection in memory: what it lists is what the router serves, and the descriptors it
 * returns are complete enough for a client to build a registry and call a method (grpcurl and
 * buf curl against the real server: test/integration/grpc-interop.test.ts).
 */
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { ServerReflection, type ServerReflectionRequest } from "../../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionAlpha } from "../../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { inMemoryApi } from "./in-memory-api.js";

type Ask = ServerReflectionRequest["messageRequest"];

async function ask(...asks: Ask[]) {
  const client = inMemoryApi().client(ServerReflection);
  async function* requests() {
    for (const messageRequest of asks) yield { host: "localhost", messageRequest };
  }
  const answers = [];
  for await (const answer of client.serverReflectionInfo(requests())) answers.push(answer.messageResponse);
  return answers;
}

/** As a client does: the first file is the one asked for, its imports are resolved by name among the rest. */
function registryOf(files: Uint8Array[]) {
  const [first, ...rest] = files.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes));
  const byName = new Map(rest.map((f) => [f.name, f]));
  return createFileRegistry(first, (name) => byName.get(name));
}

describe("gRPC server reflection", () => {
  it("lists every served service, without a token", async () => {
    const [answer] = await ask({ case: "listServices", value: "" });
    expect(answer.case).toBe("listServicesResponse");
    const names = answer.case === "listServicesResponse" ? answer.value.service.map((s) => s.name) : [];
    expect(names).toEqual(
      expect.arrayContaining([
        "filestorage.v1.FileStorageService",
        "filestorage.v1.AuditService",
        "filestorage.v1.WebhookService",
        "customfields.v1.CustomFieldsService",
        "customers.v1.CustomersService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
      ]),
    );
  });

  it("answers a method's file with every file it imports, enough to build a registry", async () => {
    const [answer] = await ask({ case: "fileContainingSymbol", value: "filestorage.v1.FileStorageService.InitiateUpload" });
    if (answer.case !== "fileDescriptorResponse") throw new Error(`unexpected ${answer.case}`);
    const registry = registryOf(answer.value.fileDescriptorProto);
    const service = registry.getService("filestorage.v1.FileStorageService");
    expect(service?.methods.map((m) => m.name)).toContain("InitiateUpload");
    expect(registry.getFile("google/api/annotations.proto")).toBeDefined();
  });

  it("answers by file name and refuses unknown symbols and files with NOT_FOUND, on one stream", async () => {
    const answers = await ask(
      { case: "fileByFilename", value: "customers/v1/customers_service.proto" },
      { case: "fileContainingSymbol", value: "no.such.Symbol" },
      { case: "fileByFilename", value: "no/such.proto" },
    );
    expect(answers.map((a) => a.case)).toEqual(["fileDescriptorResponse", "errorResponse", "errorResponse"]);
    expect(answers.slice(1).map((a) => (a.case === "errorResponse" ? a.value.errorCode : undefined))).toEqual([Code.NotFound, Code.NotFound]);
  });

  it("serves v1alpha for older clients", async () => {
    const client = inMemoryApi().client(ServerReflectionAlpha);
    async function* one() {
      yield { host: "", messageRequest: { case: "listServices" as const, value: "" } };
    }
    for await (const answer of client.serverReflectionInfo(one())) expect(answer.messageResponse.case).toBe("listServicesResponse");
  });
});
