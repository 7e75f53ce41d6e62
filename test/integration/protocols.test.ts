import { createClient } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus } from "../../gen/grpc/health/v1/health_pb.js";
import { ObjectClass, ObjectStatus } from "../../gen/filestorage/v1/types_pb.js";
import { png } from "../fixtures/files/index.js";
import { clientsFor, rest, tokenFor, transportFor, uniqueTenant, type Protocol } from "../support/clients.js";

describe("one handler on every transport", () => {
  it("serves the standard grpc.health.v1 service over gRPC without a token", async () => {
    const health = createClient(Health, transportFor("grpc"));
    const answer = await health.check({});
    expect(answer.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  });

  it.each<Protocol>(["grpc", "grpc-web", "connect"])("initiates and reads an upload over %s, and REST sees the same object", async (protocol) => {
    const token = await tokenFor(uniqueTenant());
    const { files } = clientsFor(protocol, token);
    const bytes = png(2, 2);
    const started = await files.initiateUpload({
      objectClass: ObjectClass.GENERAL_DOCUMENT,
      ownerEntityType: "Account",
      ownerEntityId: "acc-1",
      originalFilename: "scan.png",
      contentType: "image/png",
      fileSize: BigInt(bytes.length),
    });
    const id = started.storedObject!.id;
    const got = await files.getUpload({ objectId: id });
    expect(got.storedObject!.status).toBe(ObjectStatus.PENDING_UPLOAD);
    const viaRest = await rest("GET", `/api/v1/uploads/${id}`, { token });
    expect(viaRest.body.storedObject).toMatchObject({ id, status: "PENDING_UPLOAD", objectClass: "GENERAL_DOCUMENT", fileSize: String(bytes.length) });
  });

  it("accepts 64-bit integers as numbers or strings on input", async () => {
    const token = await tokenFor(uniqueTenant());
    const body = { objectClass: "GENERAL_DOCUMENT", ownerEntityType: "User", ownerEntityId: "u", originalFilename: "a.png", contentType: "image/png" };
    expect((await rest("POST", "/api/v1/uploads/initiate", { token, body: { ...body, fileSize: 10 } })).status).toBe(200);
    expect((await rest("POST", "/api/v1/uploads/initiate", { token, body: { ...body, fileSize: "10" } })).status).toBe(200);
  });
});
