/**
 * What each protocol promises its clients at the front door, asked with the client that met it
 * (issue #24): grpc-js for gRPC status messages, unknown methods and error details; plain fetch and
 * HTTP/2 for Connect, gRPC-Web and gRPC-Web text, whose bytes are built and read here by hand.
 */
import http2 from "node:http2";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { errorFromJson } from "@connectrpc/connect/protocol-connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { beforeAll, describe, expect, it } from "vitest";
import { InitiateUploadRequestSchema } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { ObjectClass } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { apiUrl, tokenFor, uniqueTenant, type Protocol } from "../support/clients.js";
import { reasonOf } from "../support/errors.js";

const root = process.cwd();
const FILES = "/filestorage.v1.FileStorageService";
const HEALTH_CHECK = "/grpc.health.v1.Health/Check";
/** Over the API's 256 KiB request body limit (MAX_REQUEST_BODY_BYTES). */
const OVERSIZED = "x".repeat(300 * 1024);
/** A photo declared with a content type no class allows, which the refusal's message quotes. */
const photo = { objectClass: "USER_PROFILE_PHOTO", ownerEntityType: "User", ownerEntityId: "u1", originalFilename: "me.png", contentType: "image/pngé" } as const;

type Callback = (error: grpc.ServiceError | null, response: unknown) => void;
type Unary = (request: object, metadata: grpc.Metadata, callback: Callback) => void;
let files: grpc.Client & Record<string, Unary>;

beforeAll(() => {
  const definition = protoLoader.loadSync(["filestorage/v1/file_storage_service.proto"], {
    includeDirs: [path.join(root, "proto"), path.join(root, ".proto-deps")],
    longs: String,
    enums: String,
    defaults: true,
  });
  const loaded = grpc.loadPackageDefinition(definition) as any;
  files = new loaded.filestorage.v1.FileStorageService(new URL(apiUrl()).host, grpc.credentials.createInsecure());
});

async function bearer(): Promise<grpc.Metadata> {
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${await tokenFor(uniqueTenant())}`);
  return metadata;
}

/** A grpc-js call's error, with the ErrorInfo of its grpc-status-details-bin read as connect-es reads it. */
async function grpcRefusal(call: (callback: Callback) => void): Promise<{ code: string; details: string; reason?: string }> {
  const error = await new Promise<grpc.ServiceError>((resolve, reject) => call((e) => (e ? resolve(e) : reject(new Error("the call succeeded")))));
  const [bin] = error.metadata.get("grpc-status-details-bin") as Buffer[];
  const fields = new Headers({ "grpc-status": String(error.code) });
  if (bin) fields.set("grpc-status-details-bin", bin.toString("base64"));
  return { code: grpc.status[error.code], details: error.details, reason: reasonOf(findTrailerError(fields) ?? new ConnectError("")) };
}

/** One raw HTTP/2 gRPC call: the status line and every header and trailer field the server sent. */
function rawGrpc(procedure: string, body: Uint8Array, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(apiUrl());
    session.on("error", reject);
    const call = session.request({ ":method": "POST", ":path": procedure, "content-type": "application/grpc", te: "trailers", ...headers });
    let fields: Record<string, unknown> = {};
    call.on("response", (h) => (fields = { ...fields, ...h }));
    call.on("trailers", (t) => (fields = { ...fields, ...t }));
    call.on("data", () => undefined);
    call.on("end", () => {
      session.close();
      resolve(fields);
    });
    call.on("error", reject);
    call.end(body);
  });
}

function envelope(flags: number, data: Uint8Array): Buffer {
  const framed = Buffer.alloc(5 + data.length);
  framed[0] = flags;
  framed.writeUInt32BE(data.length, 1);
  framed.set(data, 5);
  return framed;
}

/** gRPC-Web frames of a body: data frames, and the trailer block parsed into fields. */
function frames(body: Buffer): { messages: Buffer[]; trailers: Record<string, string> } {
  const messages: Buffer[] = [];
  const trailers: Record<string, string> = {};
  for (let at = 0; at < body.length; ) {
    const length = body.readUInt32BE(at + 1);
    const data = body.subarray(at + 5, at + 5 + length);
    if (body[at] & 0x80) {
      for (const line of data.toString("utf8").split("\r\n").filter(Boolean)) {
        const colon = line.indexOf(":");
        trailers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      }
    } else messages.push(data);
    at += 5 + length;
  }
  return { messages, trailers };
}

/** A gRPC-Web text body: base64 segments, each possibly padded (PROTOCOL-WEB.md). */
function fromText(text: string): Buffer {
  return Buffer.concat((text.match(/[^=]+=*/g) ?? []).map((segment) => Buffer.from(segment, "base64")));
}

function reasonOfTrailers(trailers: Record<string, string>): string | undefined {
  return reasonOf(findTrailerError(new Headers(trailers)) ?? new ConnectError(""));
}

async function post(procedure: string, contentType: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(`${apiUrl()}${procedure}`, { method: "POST", headers: { "content-type": contentType, ...headers }, body: typeof body === "string" ? body : new Uint8Array(body) });
}

describe("gRPC status messages as the gRPC spec encodes them", () => {
  it("grpc-js shows a validation message as written, not percent-escaped", async () => {
    const metadata = await bearer();
    const refused = await grpcRefusal((cb) => files.getUpload({ objectId: "not-a-uuid" }, metadata, cb));
    expect(refused.code).toBe("INVALID_ARGUMENT");
    expect(refused.details).toContain("objectId: ");
    expect(refused.details).not.toMatch(/%[0-9A-F]{2}/);
  });

  it("round-trips a non-ASCII message through grpc-js", async () => {
    const metadata = await bearer();
    const refused = await grpcRefusal((cb) => files.initiateUpload({ ...photo, fileSize: "10" }, metadata, cb));
    expect([refused.code, refused.reason]).toEqual(["INVALID_ARGUMENT", "CONTENT_TYPE_NOT_ALLOWED"]);
    expect(refused.details).toMatch(/^content type "image\/pngé" is not allowed for USER_PROFILE_PHOTO; allowed: image\//);
  });

  it("escapes in grpc-message only the bytes outside printable ASCII, and '%'", async () => {
    const request = toBinary(InitiateUploadRequestSchema, create(InitiateUploadRequestSchema, { ...photo, objectClass: ObjectClass.USER_PROFILE_PHOTO, fileSize: 10n }));
    const fields = await rawGrpc(`${FILES}/InitiateUpload`, envelope(0, request), { authorization: `Bearer ${await tokenFor(uniqueTenant())}` });
    expect(fields["grpc-status"]).toBe(String(grpc.status.INVALID_ARGUMENT));
    expect(String(fields["grpc-message"])).toMatch(/^content type "image\/png%C3%A9" is not allowed for USER_PROFILE_PHOTO; allowed: image\/[a-z]+, /);
  });
});

describe("unknown services and methods", () => {
  it("grpc-js gets UNIMPLEMENTED from the server, not from an HTTP 404", async () => {
    const Unknown = grpc.makeGenericClientConstructor(
      { nothing: { path: "/no.such.v1.Service/Nothing", requestStream: false, responseStream: false, requestSerialize: (v: Buffer) => v, requestDeserialize: (v: Buffer) => v, responseSerialize: (v: Buffer) => v, responseDeserialize: (v: Buffer) => v } },
      "Unknown",
    );
    const client = new Unknown(new URL(apiUrl()).host, grpc.credentials.createInsecure()) as grpc.Client & Record<string, Unary>;
    const refused = await grpcRefusal((cb) => client.nothing(Buffer.alloc(0), new grpc.Metadata(), cb));
    expect(refused.code).toBe("UNIMPLEMENTED");
    expect(refused.details).not.toMatch(/HTTP status code/);
    expect(refused.reason).toBe("UNKNOWN_PROCEDURE");
    client.close();
  });

  it("answers an unknown gRPC method with HTTP 200 and grpc-status 12", async () => {
    const fields = await rawGrpc(`${FILES}/NoSuchMethod`, envelope(0, new Uint8Array()));
    expect([fields[":status"], fields["grpc-status"]]).toEqual([200, "12"]);
    expect(fields["grpc-message"]).toBe(`unknown procedure ${FILES}/NoSuchMethod`);
  });

  it("answers an unknown gRPC-Web method with HTTP 200 and a trailer frame saying 12", async () => {
    const res = await post("/no.such.v1.Service/Nothing", "application/grpc-web+proto", envelope(0, new Uint8Array()));
    expect(res.status).toBe(200);
    const { trailers } = frames(Buffer.from(await res.arrayBuffer()));
    expect(trailers["grpc-status"]).toBe("12");
    expect(reasonOfTrailers(trailers)).toBe("UNKNOWN_PROCEDURE");
  });

  it("answers an unknown Connect procedure 404 with a Connect error body", async () => {
    const res = await post("/no.such.v1.Service/Nothing", "application/json", "{}");
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toMatchObject({ code: "unimplemented", message: "unknown procedure /no.such.v1.Service/Nothing" });
    expect(reasonOf(body)).toBe("UNKNOWN_PROCEDURE");
  });

  it("answers a Connect content type a procedure does not take 415 with a Connect error body", async () => {
    // A server-streaming procedure takes application/connect+json, not the unary form.
    const res = await post("/filestorage.v1.AuditService/ExportAuditEntries", "application/json", "{}");
    expect(res.status).toBe(415);
    const body = await res.json();
    // 415 is what the Connect spec names; clients (and the conformance suite) read it as unknown.
    expect(body.code).toBe("unknown");
    expect(reasonOf(body)).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers a content type no protocol claims a bare 415 that says in Accept-Post what it takes", async () => {
    // No body: a gRPC or gRPC-Web client sending it would not read one (connect-go answers so too).
    const res = await post(`${FILES}/GetUpload`, "text/plain", "{}");
    expect(res.status).toBe(415);
    expect(await res.text()).toBe("");
    expect(res.headers.get("accept-post")).toContain("application/json");
    expect(res.headers.get("accept-post")).toContain("application/grpc-web-text");
  });
});

describe("every error carries an ErrorInfo, limits and malformed bodies included", () => {
  it("a Connect body over the limit has the REST 413's reason", async () => {
    const token = await tokenFor(uniqueTenant());
    const connect = await post(`${FILES}/GetUpload`, "application/json", JSON.stringify({ objectId: OVERSIZED }), { authorization: `Bearer ${token}` });
    expect(connect.status).toBe(429);
    const connectBody = await connect.json();
    const restAnswer = await fetch(`${apiUrl()}/api/v1/uploads/initiate`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ originalFilename: OVERSIZED }),
    });
    expect(restAnswer.status).toBe(413);
    const restReason = reasonOf(await restAnswer.json());
    expect(restReason).toBeDefined();
    expect([connectBody.code, reasonOf(connectBody)]).toEqual(["resource_exhausted", restReason]);
  });

  it("a gRPC message over the limit is RESOURCE_EXHAUSTED with that reason in grpc-status-details-bin", async () => {
    const metadata = await bearer();
    const refused = await grpcRefusal((cb) => files.getUpload({ objectId: OVERSIZED }, metadata, cb));
    expect([refused.code, refused.reason]).toEqual(["RESOURCE_EXHAUSTED", "RESOURCE_EXHAUSTED"]);
  });

  it.each([
    ["malformed JSON", '{"objectId": '],
    ["an unknown key", '{"objectId": "0190a6f4-0000-7000-8000-000000000000", "noSuchField": 1}'],
  ])("Connect refuses %s as invalid_argument with MALFORMED_REQUEST", async (_what, body) => {
    const res = await post(`${FILES}/GetUpload`, "application/json", body, { authorization: `Bearer ${await tokenFor(uniqueTenant())}` });
    expect(res.status).toBe(400);
    const error = await res.json();
    expect([error.code, reasonOf(error)]).toEqual(["invalid_argument", "MALFORMED_REQUEST"]);
  });
});

type Codec = "proto" | "json";

/** The content type of a protocol and codec, as connect-es and grpc-js send it. */
function contentTypeOf(protocol: Protocol, codec: Codec): string {
  if (protocol === "connect") return `application/${codec}`;
  return `application/${protocol}${codec === "json" ? "+json" : protocol === "grpc-web" ? "+proto" : ""}`;
}

/**
 * A raw request's error as the protocol's clients decode it: gRPC from its HTTP/2 trailers (or
 * trailers-only header), gRPC-Web from its trailer frame, Connect from its JSON error body.
 */
async function rawRefusal(protocol: Protocol, codec: Codec, procedure: string, message: Uint8Array, token: string): Promise<ConnectError | undefined> {
  const headers = { "content-type": contentTypeOf(protocol, codec), authorization: `Bearer ${token}` };
  if (protocol === "grpc") {
    const fields = await rawGrpc(procedure, envelope(0, message), headers);
    return findTrailerError(new Headers(Object.entries(fields).flatMap(([name, value]) => (name.startsWith(":") ? [] : [[name, String(value)] as [string, string]]))));
  }
  if (protocol === "grpc-web") {
    const res = await post(procedure, headers["content-type"], envelope(0, message), headers);
    return findTrailerError(new Headers(frames(Buffer.from(await res.arrayBuffer())).trailers));
  }
  const res = await post(procedure, headers["content-type"], Buffer.from(message), headers);
  return errorFromJson(await res.json(), undefined, new ConnectError(`HTTP ${res.status} without a Connect error body`));
}

describe("the errors the runtime raises before any handler carry an ErrorInfo on every protocol", () => {
  // What the conformance suite's mount turns off (fillErrorInfo: false): the API keeps it on.
  const oversized = toBinary(InitiateUploadRequestSchema, create(InitiateUploadRequestSchema, { originalFilename: OVERSIZED }));
  const cases = [
    ["an unknown method", "proto", `${FILES}/NoSuchMethod`, new Uint8Array(), Code.Unimplemented, "UNKNOWN_PROCEDURE"],
    ["a malformed body", "json", `${FILES}/GetUpload`, Buffer.from('{"objectId": '), Code.InvalidArgument, "MALFORMED_REQUEST"],
    // Field 1, length-delimited, whose length varint never ends: the runtime's "parse binary" (internal).
    ["a body that does not decode as protobuf", "proto", `${FILES}/GetUpload`, Buffer.from([0x0a, 0xff]), Code.InvalidArgument, "MALFORMED_REQUEST"],
    ["a body over the limit", "proto", `${FILES}/InitiateUpload`, oversized, Code.ResourceExhausted, "RESOURCE_EXHAUSTED"],
  ] as const;
  const protocols: Protocol[] = ["grpc", "grpc-web", "connect"];

  it.each(protocols.flatMap((protocol) => cases.map((c) => [protocol, ...c] as const)))("%s: %s", async (protocol, _what, codec, procedure, message, code, reason) => {
    const error = await rawRefusal(protocol, codec, procedure, message, await tokenFor(uniqueTenant()));
    expect([error?.code, error && reasonOf(error)]).toEqual([code, reason]);
  });
});

describe("application/grpc-web-text", () => {
  it("serves a unary call: base64 request in, base64 frames out", async () => {
    const res = await post(HEALTH_CHECK, "application/grpc-web-text", envelope(0, new Uint8Array()).toString("base64"), { accept: "application/grpc-web-text" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/grpc-web-text/);
    const { messages, trailers } = frames(fromText(await res.text()));
    // HealthCheckResponse{status: SERVING (1)}: field 1, varint 1.
    expect(messages.map((m) => m.toString("hex"))).toEqual(["0801"]);
    expect(trailers["grpc-status"]).toBe("0");
  });

  it("answers an error in base64 too, with its status and ErrorInfo in the trailer frame", async () => {
    // GetUpload{objectId: "x"} without a token: field 1, length 1, "x".
    const request = envelope(0, Buffer.from([0x0a, 0x01, 0x78]));
    const res = await post(`${FILES}/GetUpload`, "application/grpc-web-text+proto", request.toString("base64"));
    expect(res.status).toBe(200);
    const { messages, trailers } = frames(fromText(await res.text()));
    expect(messages).toEqual([]);
    expect(trailers["grpc-status"]).toBe(String(grpc.status.UNAUTHENTICATED));
    expect(reasonOfTrailers(trailers)).toBe("UNAUTHENTICATED");
  });
});
