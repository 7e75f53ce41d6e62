/**
 * One smoke per real transport: the same handlers answer gRPC (HTTP/2), gRPC-Web and Connect on
 * one port, REST sees what they wrote, and a refusal crosses each wire with its code and reason.
 * Everything else about the RPC layer is specified in memory in test/unit/rpc/.
 */
import { Code, createClient } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus } from "@files-and-fields/client/gen/grpc/health/v1/health_pb.js";
import { ObjectClass, ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { png } from "../fixtures/files/index.js";
import { clientsFor, rest, tokenFor, transportFor, uniqueTenant, type Protocol } from "../support/clients.js";
import { failureOf, reasonOf } from "../support/errors.js";

const protocols: Protocol[] = ["grpc", "grpc-web", "connect"];

describe("one handler on every transport", () => {
  it("serves the standard grpc.health.v1 service over gRPC without a token", async () => {
    const health = createClient(Health, transportFor("grpc"));
    const answer = await health.check({});
    expect(answer.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  });

  it.each(protocols)("initiates and reads an upload over %s, and REST sees the same object", async (protocol) => {
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

  it.each(protocols)("refuses a missing permission over %s with its code and reason intact", async (protocol) => {
    const { files } = clientsFor(protocol, await tokenFor(uniqueTenant(), { perms: ["stored_object:READ"] }));
    const error = await failureOf(files.deleteUpload({ objectId: "0191e1c6-0000-7000-8000-000000000000" }));
    expect([error.code, reasonOf(error), error.rawMessage]).toEqual([Code.PermissionDenied, "PERMISSION_DENIED", "permission stored_object:DELETE is required"]);
  });
});
