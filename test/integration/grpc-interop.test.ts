/**
 * Clients this project did not write, against the running server: `@grpc/grpc-js` with
 * `@grpc/proto-loader` over the project's .proto files (what internal services bring), `grpcurl`
 * and `buf curl` through server reflection, without any .proto file.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import http2 from "node:http2";
import path from "node:path";
import { promisify } from "node:util";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBinary } from "../../src/stack/go-binaries.js";
import { png } from "../fixtures/files/index.js";
import { apiUrl, tokenFor, uniqueTenant } from "../support/clients.js";

const run = promisify(execFile);
const root = process.cwd();
const protoDeps = path.join(root, ".proto-deps");
const SERVICES = ["filestorage.v1.FileStorageService", "filestorage.v1.AuditService", "filestorage.v1.WebhookService", "customfields.v1.CustomFieldsService", "customers.v1.CustomersService"];

type Callback = (error: grpc.ServiceError | null, response: any) => void;
type UnaryClient = grpc.Client & Record<string, (request: object, metadata: grpc.Metadata, options: grpc.CallOptions, callback: Callback) => void>;

let files: UnaryClient;
let health: grpc.Client & { watch(request: object, options: grpc.CallOptions): grpc.ClientReadableStream<any> };
let status: { decode(bytes: Uint8Array): any };
let details: protobuf.Root;

/** The proto files as a grpc-js user loads them: from disk, with the third-party imports beside them. */
function loadProtos() {
  const definition = protoLoader.loadSync(["filestorage/v1/file_storage_service.proto", "grpc/health/v1/health.proto"], {
    includeDirs: [path.join(root, "proto"), protoDeps],
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  return grpc.loadPackageDefinition(definition) as any;
}

beforeAll(async () => {
  // npm test prepares them (lint:proto); a single file run may come first.
  if (!existsSync(path.join(protoDeps, "google/rpc/status.proto"))) await run(process.execPath, ["--import", "tsx", "scripts/proto-deps.ts"]);
  const loaded = loadProtos();
  const address = new URL(apiUrl()).host;
  files = new loaded.filestorage.v1.FileStorageService(address, grpc.credentials.createInsecure());
  health = new loaded.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
  details = protobuf.loadSync(["google/rpc/status.proto", "google/rpc/error_details.proto"].map((f) => path.join(protoDeps, f)));
  status = details.lookupType("google.rpc.Status");
});

async function authorized(perms?: string[]): Promise<grpc.Metadata> {
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${await tokenFor(uniqueTenant(), perms ? { perms } : {})}`);
  return metadata;
}

function call(method: string, request: object, metadata = new grpc.Metadata(), options: grpc.CallOptions = {}): Promise<any> {
  return new Promise((resolve, reject) => files[method](request, metadata, options, (error, response) => (error ? reject(error) : resolve(response))));
}

async function refusal(method: string, request: object, metadata?: grpc.Metadata) {
  const error = (await call(method, request, metadata).then(
    () => expect.unreachable("the call succeeded"),
    (e: grpc.ServiceError) => e,
  )) as grpc.ServiceError;
  const [raw] = error.metadata.get("grpc-status-details-bin") as Buffer[];
  const decoded = status.decode(raw);
  const unpacked = decoded.details.map((any: { type_url: string; typeUrl?: string; value: Uint8Array }) => {
    const type = details.lookupType((any.typeUrl ?? any.type_url).split("/").pop()!);
    return { type: type.fullName.slice(1), value: type.toObject(type.decode(any.value)) };
  });
  return { code: grpc.status[error.code], message: error.details, statusCode: decoded.code, details: unpacked };
}

const initiateRequest = (bytes: Uint8Array) => ({
  objectClass: "GENERAL_DOCUMENT",
  ownerEntityType: "Account",
  ownerEntityId: "acc-1",
  originalFilename: "scan.png",
  contentType: "image/png",
  fileSize: String(bytes.length),
});

describe("@grpc/grpc-js with @grpc/proto-loader over the project's protos", () => {
  it("initiates and reads an upload with bearer metadata, int64 sizes as strings and enums by name", async () => {
    const metadata = await authorized();
    const bytes = png(3, 3);
    const started = await call("initiateUpload", initiateRequest(bytes), metadata);
    expect(started.uploadUrl).toMatch(/^http/);
    const got = await call("getUpload", { objectId: started.storedObject.id }, metadata);
    expect(got.storedObject).toMatchObject({ id: started.storedObject.id, status: "PENDING_UPLOAD", objectClass: "GENERAL_DOCUMENT", fileSize: String(bytes.length) });
  });

  it("answers UNAUTHENTICATED without a token and PERMISSION_DENIED without the permission, with ErrorInfo", async () => {
    const missing = await refusal("getUpload", { objectId: "0190a6f4-0000-7000-8000-000000000000" });
    expect(missing.code).toBe("UNAUTHENTICATED");
    expect(missing.details).toContainEqual({ type: "google.rpc.ErrorInfo", value: expect.objectContaining({ domain: "files-and-fields" }) });
    const denied = await refusal("deleteUpload", { objectId: "0190a6f4-0000-7000-8000-000000000000" }, await authorized(["stored_object:READ"]));
    expect(denied.code).toBe("PERMISSION_DENIED");
    expect(denied.details[0]).toMatchObject({ type: "google.rpc.ErrorInfo", value: { reason: "PERMISSION_DENIED" } });
  });

  it("decodes grpc-status-details-bin: NOT_FOUND with its reason, INVALID_ARGUMENT with field violations", async () => {
    const metadata = await authorized();
    const notFound = await refusal("getUpload", { objectId: "0190a6f4-0000-7000-8000-000000000000" }, metadata);
    expect([notFound.code, notFound.statusCode]).toEqual(["NOT_FOUND", grpc.status.NOT_FOUND]);
    expect(notFound.details).toContainEqual({ type: "google.rpc.ErrorInfo", value: expect.objectContaining({ reason: "OBJECT_NOT_FOUND", domain: "files-and-fields" }) });
    const invalid = await refusal("getUpload", { objectId: "not-a-uuid" }, metadata);
    expect(invalid.code).toBe("INVALID_ARGUMENT");
    const badRequest = invalid.details.find((d: { type: string }) => d.type === "google.rpc.BadRequest");
    expect(badRequest.value.fieldViolations.map((v: { field: string }) => v.field)).toEqual(["objectId"]);
  });

  it("refuses an int64 size beyond JavaScript's safe integers exactly, not rounded", async () => {
    const request = { ...initiateRequest(png(1, 1)), fileSize: "9007199254740993" };
    const refused = await refusal("initiateUpload", request, await authorized());
    expect(refused.code).toBe("INVALID_ARGUMENT");
    expect(JSON.stringify(refused.details)).toMatch(/file_size|fileSize|FILE_TOO_LARGE/);
  });

  it("ends a call at the client's deadline with DEADLINE_EXCEEDED", async () => {
    // Watch never ends on its own: only the deadline (sent as grpc-timeout) ends it, on whichever
    // side fires first; both must say DEADLINE_EXCEEDED. Its first answer may come before the
    // deadline or not, depending on how fast readiness answers. grpc-js always emits `status` at
    // the end of a call, OK included, so waiting for it (not for `error`) cannot hang.
    const stream = health.watch({ service: "" }, { deadline: Date.now() + 1_000 });
    const answers: unknown[] = [];
    const seen: string[] = [];
    stream.on("data", (answer) => answers.push(answer));
    for (const event of ["error", "end", "close"]) stream.on(event, (e?: grpc.ServiceError) => seen.push(e ? `${event} ${grpc.status[e.code]} ${e.details}` : event));
    const ended = await endOf(stream, seen, 20_000);
    expect(grpc.status[ended.code], `events: ${seen.join(", ")}`).toBe("DEADLINE_EXCEEDED");
    expect(answers.every((a) => (a as { status: string }).status === "SERVING")).toBe(true);
  });

  it("the server itself ends an expired Watch with DEADLINE_EXCEEDED (a raw HTTP/2 call with grpc-timeout and no client timer)", async () => {
    const trailers = await rawGrpcCall("/grpc.health.v1.Health/Watch", { "grpc-timeout": "300m" }, 20_000);
    expect(trailers["grpc-status"], JSON.stringify(trailers)).toBe(String(grpc.status.DEADLINE_EXCEEDED));
  });
});

/** The `status` that ends a grpc-js call, or a failure naming the events seen when none came in time. */
function endOf(stream: grpc.ClientReadableStream<unknown>, seen: string[], withinMs: number): Promise<grpc.StatusObject> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no status within ${withinMs} ms; events: ${seen.join(", ") || "none"}`)), withinMs);
    stream.once("status", (status: grpc.StatusObject) => {
      clearTimeout(timer);
      seen.push(`status ${grpc.status[status.code]} ${status.details}`);
      resolve(status);
    });
  });
}

/** One gRPC call over bare HTTP/2 (an empty request message), answering the trailers the server ended it with. */
function rawGrpcCall(path: string, headers: Record<string, string>, withinMs: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(apiUrl());
    const seen: string[] = [];
    const fail = (why: string) => {
      session.destroy();
      reject(new Error(`${why}; events: ${seen.join(", ") || "none"}`));
    };
    const timer = setTimeout(() => fail(`no trailers within ${withinMs} ms`), withinMs);
    session.on("error", (e) => fail(`session error ${e.message}`));
    const call = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers", ...headers });
    call.on("response", (h) => {
      seen.push(`headers ${JSON.stringify(h)}`);
      // A trailers-only answer carries its status in the headers.
      if (h["grpc-status"] !== undefined) {
        clearTimeout(timer);
        session.close();
        resolve({ ...h });
      }
    });
    call.on("data", (chunk: Buffer) => seen.push(`data ${chunk.length} bytes`));
    call.on("trailers", (trailers) => {
      clearTimeout(timer);
      session.close();
      resolve({ ...trailers });
    });
    call.on("end", () => seen.push("end"));
    call.on("error", (e) => fail(`stream error ${e.message}`));
    call.end(Buffer.from([0, 0, 0, 0, 0]));
  });
}

describe("grpcurl and buf curl through server reflection (a token needed), without the proto files", () => {
  let grpcurl: string;
  const address = () => new URL(apiUrl()).host;

  beforeAll(async () => {
    grpcurl = await ensureBinary("grpcurl", { projectRoot: root, log: () => undefined });
  });

  it("grpcurl lists and describes the services with any valid token, and is refused without one", async () => {
    const refused = await run(grpcurl, ["-plaintext", address(), "list"]).then(
      () => expect.unreachable("grpcurl listed without a token"),
      (e: { stdout: string; stderr: string }) => e,
    );
    expect(refused.stdout + refused.stderr).toMatch(/Unauthenticated/);
    const auth = ["-H", `authorization: Bearer ${await tokenFor(uniqueTenant(), { perms: [] })}`];
    const { stdout } = await run(grpcurl, ["-plaintext", ...auth, address(), "list"]);
    expect(stdout.trim().split("\n")).toEqual(expect.arrayContaining([...SERVICES, "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection"]));
    const described = await run(grpcurl, ["-plaintext", ...auth, address(), "describe", "filestorage.v1.FileStorageService.InitiateUpload"]);
    expect(described.stdout).toContain("rpc InitiateUpload ( .filestorage.v1.InitiateUploadRequest ) returns ( .filestorage.v1.InitiateUploadResponse )");
  });

  it("grpcurl calls with a token and shows a refusal's code and message", async () => {
    const token = await tokenFor(uniqueTenant());
    const body = JSON.stringify(initiateRequest(png(2, 2)));
    const { stdout } = await run(grpcurl, ["-plaintext", "-H", `authorization: Bearer ${token}`, "-d", body, address(), "filestorage.v1.FileStorageService/InitiateUpload"]);
    expect(JSON.parse(stdout).storedObject).toMatchObject({ status: "PENDING_UPLOAD", fileSize: String(png(2, 2).length) });
    const refused = await run(grpcurl, ["-plaintext", "-H", `authorization: Bearer ${token}`, "-d", '{"objectId":"0190a6f4-0000-7000-8000-000000000000"}', address(), "filestorage.v1.FileStorageService/GetUpload"]).then(
      () => expect.unreachable("grpcurl succeeded"),
      (e: { stdout: string; stderr: string; code: number }) => e,
    );
    expect(refused.stdout + refused.stderr).toMatch(/Code: NotFound/);
    // The ErrorInfo detail decoded through reflection, not "google.rpc.ErrorInfo is not recognized".
    expect(refused.stdout + refused.stderr).toContain('"@type": "type.googleapis.com/google.rpc.ErrorInfo"');
    expect(refused.stdout + refused.stderr).toContain('"reason": "OBJECT_NOT_FOUND"');
  });

  it.each(["grpc", "grpcweb", "connect"])("buf curl calls over %s with reflection", async (protocol) => {
    const token = await tokenFor(uniqueTenant());
    const buf = path.join(root, "node_modules", ".bin", "buf");
    const { stdout } = await run(buf, [
      "curl",
      "--protocol",
      protocol,
      "--http2-prior-knowledge",
      "--reflect",
      // Reflection needs the token too: buf curl sends -H headers with reflection only when told.
      "--reflect-header",
      "*",
      "-H",
      `authorization: Bearer ${token}`,
      "-d",
      JSON.stringify(initiateRequest(png(2, 2))),
      `${apiUrl()}/filestorage.v1.FileStorageService/InitiateUpload`,
    ]);
    expect(JSON.parse(stdout).storedObject).toMatchObject({ status: "PENDING_UPLOAD" });
  });
});
