/**
 * Server reflection in memory: what it lists is what the router serves, and the descriptors it
 * returns are complete enough for a client to build a registry and call a method (grpcurl and
 * buf curl against the real server: test/integration/grpc-interop.test.ts). It needs a token
 * unless made public, then each client address is metered; descriptors are serialised once.
 */
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { CustomersService } from "@files-and-fields/client/gen/customers/v1/customers_service_pb.js";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { ServerReflection, ServerReflectionRequestSchema, type ServerReflectionRequest } from "@files-and-fields/client/gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionAlpha } from "@files-and-fields/client/gen/grpc/reflection/v1alpha/reflection_pb.js";
import { answer, reflectionAccess, reflectionIndex } from "../../../src/rpc/reflection-service.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

type Ask = ServerReflectionRequest["messageRequest"];

/** Any valid token will do: reflection asks for no permission. */
const anyToken = (api: InMemoryApi) => api.token("t1", { perms: [] });

async function askWith(api: InMemoryApi, token: string | undefined, asks: Ask[]) {
  const client = api.client(ServerReflection, token);
  async function* requests() {
    for (const messageRequest of asks) yield { host: "localhost", messageRequest };
  }
  const answers = [];
  for await (const answer of client.serverReflectionInfo(requests())) answers.push(answer.messageResponse);
  return answers;
}

async function ask(...asks: Ask[]) {
  const api = inMemoryApi();
  return askWith(api, await anyToken(api), asks);
}

const refusal = (call: Promise<unknown>) => call.then(() => expect.unreachable("answered"), (error: unknown) => ConnectError.from(error));

/** As a client does: the first file is the one asked for, its imports are resolved by name among the rest. */
function registryOf(files: Uint8Array[]) {
  const [first, ...rest] = files.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes));
  const byName = new Map(rest.map((f) => [f.name, f]));
  return createFileRegistry(first, (name) => byName.get(name));
}

describe("gRPC server reflection", () => {
  it("lists every served service to any caller with a token, even one without permissions", async () => {
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

  it("answers the error details every refusal carries, which no service imports, so clients can decode them", async () => {
    for (const symbol of ["google.rpc.ErrorInfo", "google.rpc.BadRequest"]) {
      const [answer] = await ask({ case: "fileContainingSymbol", value: symbol });
      if (answer.case !== "fileDescriptorResponse") throw new Error(`${symbol}: unexpected ${answer.case}`);
      expect(registryOf(answer.value.fileDescriptorProto).getMessage(symbol)?.typeName).toBe(symbol);
    }
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
    const api = inMemoryApi();
    const client = api.client(ServerReflectionAlpha, await anyToken(api));
    async function* one() {
      yield { host: "", messageRequest: { case: "listServices" as const, value: "" } };
    }
    for await (const answer of client.serverReflectionInfo(one())) expect(answer.messageResponse.case).toBe("listServicesResponse");
  });
});

describe("who may reflect", () => {
  const list: Ask = { case: "listServices", value: "" };

  it.each([
    ["v1", ServerReflection],
    ["v1alpha", ServerReflectionAlpha],
  ] as const)("%s: refuses a caller without a token (UNAUTHENTICATED) by default", async (_version, service) => {
    const client = inMemoryApi().client(service);
    async function* one() {
      yield { host: "", messageRequest: list };
    }
    const error = await refusal((async () => {
      for await (const _ of client.serverReflectionInfo(one())) void _;
    })());
    expect(error.code).toBe(Code.Unauthenticated);
  });

  it("made public, answers without a token, each client address up to its budget, then RESOURCE_EXHAUSTED / RATE_LIMITED", async () => {
    let now = 0;
    const api = inMemoryApi({ reflection: reflectionAccess({ public: true, publicRequestsPerMinute: 3 }, () => now) });
    expect(await askWith(api, undefined, [list, list, list])).toHaveLength(3);
    const error = await refusal(askWith(api, undefined, [list]));
    expect([error.code, error.rawMessage]).toEqual([Code.ResourceExhausted, "too many reflection requests from this address; retry later"]);
    now += 20_000; // a third of a minute refills one request
    expect(await askWith(api, undefined, [list])).toHaveLength(1);
    expect((await refusal(askWith(api, undefined, [list]))).code).toBe(Code.ResourceExhausted);
  });

  it("keeps a bucket per client address", () => {
    const access = reflectionAccess({ public: true, publicRequestsPerMinute: 1 }, () => 0);
    if (!access.public) throw new Error("public expected");
    expect([access.allow("192.0.2.1"), access.allow("192.0.2.1"), access.allow("192.0.2.2")]).toEqual([true, false, true]);
  });
});

describe("descriptors serialised once", () => {
  it("answers the same file twice with the very same bytes, its imports included", () => {
    const index = reflectionIndex([FileStorageService, CustomersService]);
    const ask = (symbol: string) => answer(index, create(ServerReflectionRequestSchema, { messageRequest: { case: "fileContainingSymbol", value: symbol } }));
    const first = ask("filestorage.v1.FileStorageService");
    const second = ask("filestorage.v1.FileStorageService.InitiateUpload");
    if (first.messageResponse.case !== "fileDescriptorResponse" || second.messageResponse.case !== "fileDescriptorResponse") throw new Error("no descriptors");
    const [a, b] = [first.messageResponse.value.fileDescriptorProto, second.messageResponse.value.fileDescriptorProto];
    expect(a.length).toBeGreaterThan(1);
    a.forEach((bytes, i) => expect(bytes).toBe(b[i]));
  });
});
