import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { ObjectClass } from "../../gen/filestorage/v1/types_pb.js";
import { ErrorInfoSchema, BadRequestSchema } from "../../gen/google/rpc/error_details_pb.js";
import { apiUrl, clientsFor, rest, tokenFor, uniqueTenant } from "../support/clients.js";

describe("health", () => {
  it("answers /healthz while the process is up", async () => {
    const res = await fetch(`${apiUrl()}/healthz`);
    expect(res.status).toBe(200);
  });

  it("answers /readyz 200 with every dependency reachable", async () => {
    const res = await rest("GET", "/readyz");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.dependencies).sort()).toEqual(["cache", "database", "storage", "temporal"]);
  });

  it("returns the request id it was given, or a new one", async () => {
    const given = await fetch(`${apiUrl()}/healthz`, { headers: { "x-request-id": "req-abc-123" } });
    expect(given.headers.get("x-request-id")).toBe("req-abc-123");
    const generated = await fetch(`${apiUrl()}/healthz`);
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("REST routing", () => {
  it("answers 404 for an unknown path", async () => {
    const res = await rest("GET", "/api/v1/nothing-here", { token: await tokenFor("t1") });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
  });

  it("answers 405 with Allow for a known path and the wrong method", async () => {
    const res = await rest("PUT", "/api/v1/uploads/initiate", { token: await tokenFor("t1") });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")?.split(", ")).toContain("POST");
  });
});

describe("authentication", () => {
  it("refuses a call without a token as unauthenticated (401)", async () => {
    const res = await rest("GET", "/api/v1/uploads");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthenticated");
  });

  it("refuses a token with a bad signature", async () => {
    const res = await rest("GET", "/api/v1/uploads", { token: await tokenFor("t1", { secret: "another-secret" }) });
    expect(res.status).toBe(401);
  });

  it("refuses an expired token", async () => {
    const res = await rest("GET", "/api/v1/uploads", { token: await tokenFor("t1", { expiresIn: "-1m" }) });
    expect(res.status).toBe(401);
  });

  it("refuses a missing permission as permission_denied (403) on gRPC too", async () => {
    const { files } = clientsFor("grpc", await tokenFor("t1", { perms: ["stored_object:READ"] }));
    const error = await files.deleteUpload({ objectId: "0191e1c6-0000-7000-8000-000000000000" }).catch((e) => e);
    expect(ConnectError.from(error).code).toBe(Code.PermissionDenied);
  });
});

describe("bad input", () => {
  const initiate = {
    objectClass: "USER_PROFILE_PHOTO",
    ownerEntityType: "User",
    ownerEntityId: "u-1",
    originalFilename: "me.png",
    contentType: "image/png",
    fileSize: 1000,
  };

  it("answers malformed JSON with invalid_argument, never 500", async () => {
    const res = await rest("POST", "/api/v1/uploads/initiate", {
      token: await tokenFor("t1"),
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_argument");
  });

  it("names the field of a wrong type", async () => {
    const res = await rest("POST", "/api/v1/uploads/initiate", { token: await tokenFor("t1"), body: { ...initiate, fileSize: "big" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("fileSize");
  });

  it("names the field of an unknown enum value", async () => {
    const res = await rest("POST", "/api/v1/uploads/initiate", { token: await tokenFor("t1"), body: { ...initiate, objectClass: "PASSPORT" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("objectClass");
  });

  it("reports a missing required field with a BadRequest violation for it", async () => {
    const { files } = clientsFor("connect", await tokenFor("t1"));
    const error = ConnectError.from(
      await files.initiateUpload({ ...initiate, objectClass: ObjectClass.USER_PROFILE_PHOTO, fileSize: 1000n, ownerEntityId: "" }).catch((e) => e),
    );
    expect(error.code).toBe(Code.InvalidArgument);
    const fields = error.findDetails(BadRequestSchema).flatMap((d) => d.fieldViolations.map((v) => v.field));
    expect(fields).toContain("ownerEntityId");
    expect(error.findDetails(ErrorInfoSchema)[0].reason).toBe("VALIDATION_FAILED");
  });

  it("refuses a body over 1 MiB", async () => {
    const res = await rest("POST", "/api/v1/uploads/initiate", {
      token: await tokenFor("t1"),
      body: { ...initiate, originalFilename: "x".repeat(1_100_000) },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("resource_exhausted");
  });

  it("treats another tenant's object as not found", async () => {
    const res = await rest("GET", "/api/v1/uploads/0191e1c6-0000-7000-8000-000000000000", { token: await tokenFor(uniqueTenant()) });
    expect(res.status).toBe(404);
  });
});
