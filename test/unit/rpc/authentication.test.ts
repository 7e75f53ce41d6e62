/**
 * Who may call what: the bearer token (here HS256 with an issuer and audience, in the safe mode),
 * the tenant it carries, and the one
 * permission table (src/rpc/permissions.ts) checked before any handler runs, the same for every
 * transport because it is an interceptor of the one router.
 */
import { Code, createClient } from "@connectrpc/connect";
import { beforeEach, describe, expect, it } from "vitest";
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { Health, HealthCheckResponse_ServingStatus } from "@files-and-fields/client/gen/grpc/health/v1/health_pb.js";
import { SignJWT } from "jose";
import { signDevelopmentToken } from "../../../src/rpc/dev-token.js";
import { jsonApiServices } from "../../../src/rpc/openapi/generate-openapi.js";
import { allPermissions, methodPermissions } from "../../../src/rpc/permissions.js";
import { DEVELOPMENT_JWT_SECRET } from "../../../src/config/auth.js";
import { failureOf, reasonOf } from "../../support/errors.js";
import { UNIT_SIGNING } from "../../support/tokens.js";
import { inMemoryApi, type InMemoryApi } from "./in-memory-api.js";

let api: InMemoryApi;
beforeEach(() => {
  api = inMemoryApi();
});

const rpcsOf = (services: DescService[]): DescMethod[] => services.flatMap((s) => s.methods);
const fullName = (method: DescMethod) => `${method.parent.typeName}/${method.name}`;

describe("authentication", () => {
  it("refuses a call without a token as 401 unauthenticated", async () => {
    const res = await api.rest("GET", "/api/v1/uploads");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthenticated");
    expect(reasonOf(res.body)).toBe("UNAUTHENTICATED");
    expect(res.body.message).toBe("missing bearer token in the authorization header");
  });

  it("refuses credentials that are not a bearer token", async () => {
    const res = await api.rest("GET", "/api/v1/uploads", { headers: { authorization: "Basic dXNlcjpwYXNz" } });
    expect(res.status).toBe(401);
    expect(reasonOf(res.body)).toBe("UNAUTHENTICATED");
  });

  it("refuses a token signed with another secret", async () => {
    const res = await api.rest("GET", "/api/v1/uploads", { token: await api.token("t1", { secret: "another-secret" }) });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("invalid token: signature verification failed");
  });

  it("refuses an expired token", async () => {
    const res = await api.rest("GET", "/api/v1/uploads", { token: await api.token("t1", { expiresIn: "-1m" }) });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/^invalid token: "exp" claim timestamp check failed/);
  });

  it("refuses a token without a tenant", async () => {
    const res = await api.rest("GET", "/api/v1/uploads", { token: await api.token("") });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("token has no tenant (tid)");
  });

  it("accepts a token expired within the clock tolerance (30 s)", async () => {
    expect((await api.rest("GET", "/api/v1/uploads", { token: await api.token("t1", { expiresIn: "-10s" }) })).status).toBe(200);
  });

  it("refuses a token without an expiry: a leaked one would work forever", async () => {
    const token = await new SignJWT({ tid: "t1", perms: [...allPermissions] })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("u")
      .setIssuer(UNIT_SIGNING.issuer)
      .setAudience(UNIT_SIGNING.audience)
      .setIssuedAt()
      .sign(new TextEncoder().encode(UNIT_SIGNING.secret));
    const res = await api.rest("GET", "/api/v1/uploads", { token });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('invalid token: missing required "exp" claim');
  });

  it("refuses a token of another issuer or for another audience", async () => {
    const otherIssuer = await api.rest("GET", "/api/v1/uploads", { token: await api.token("t1", { issuer: "https://elsewhere.example" }) });
    expect(otherIssuer.status).toBe(401);
    expect(otherIssuer.body.message).toBe('invalid token: unexpected "iss" claim value');
    const otherAudience = await api.rest("GET", "/api/v1/uploads", { token: await api.token("t1", { audience: "another-service" }) });
    expect(otherAudience.status).toBe(401);
    expect(otherAudience.body.message).toBe('invalid token: unexpected "aud" claim value');
  });

  it("refuses a development token: the development secret is in the source", async () => {
    const res = await api.rest("GET", "/api/v1/uploads", { token: await signDevelopmentToken(DEVELOPMENT_JWT_SECRET, { tenant: "t1", user: "u" }) });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("invalid token: signature verification failed");
  });

  it("refuses a typed client without a token with Code.Unauthenticated", async () => {
    const error = await failureOf(api.client(FileStorageService).listUploads({}));
    expect(error.code).toBe(Code.Unauthenticated);
    expect(reasonOf(error)).toBe("UNAUTHENTICATED");
  });

  it("lets anyone ask grpc.health.v1 without a token", async () => {
    const answer = await createClient(Health, api.transport()).check({});
    expect(answer.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  });
});

describe("permissions", () => {
  it("every RPC of the JSON API names the permission it needs", () => {
    const missing = rpcsOf(jsonApiServices).map(fullName).filter((name) => !methodPermissions[name]);
    expect(missing).toEqual([]);
  });

  it("every RPC refuses a token that holds every permission but its own, before its handler runs", async () => {
    for (const method of rpcsOf(jsonApiServices)) {
      const needed = methodPermissions[fullName(method)];
      const token = await api.token("t1", { perms: allPermissions.filter((p) => p !== needed) });
      const client = api.client(method.parent, token) as unknown as Record<string, (req: object) => Promise<unknown> & AsyncIterable<unknown>>;
      const call = method.methodKind === "unary" ? client[method.localName]({}) : drain(client[method.localName]({}));
      const error = await failureOf(call);
      expect({ rpc: fullName(method), code: error.code, reason: reasonOf(error), message: error.rawMessage }).toEqual({
        rpc: fullName(method),
        code: Code.PermissionDenied,
        reason: "PERMISSION_DENIED",
        message: `permission ${needed} is required`,
      });
    }
    expect(api.objects.rows.size + api.fields.rows.size + api.customers.rows.size + api.endpoints.rows.size).toBe(0);
  });

  it("answers 403 permission_denied over REST for a write with read-only permissions, and lets the read through", async () => {
    const token = await api.token("t1", { perms: ["custom_field_definition:READ"] });
    const create = await api.rest("POST", "/api/v1/custom-fields", { token, body: { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "string" } });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe("permission_denied");
    expect(reasonOf(create.body)).toBe("PERMISSION_DENIED");
    expect((await api.rest("DELETE", "/api/v1/custom-fields/abc", { token })).status).toBe(403);
    expect((await api.rest("GET", "/api/v1/custom-fields/Customer", { token })).status).toBe(200);
    expect(api.fields.rows.size).toBe(0);
  });

  it("separates placing a legal hold from releasing it", async () => {
    const owner = await api.token("t1");
    const object = (await api.rest("POST", "/api/v1/uploads/initiate", {
      token: owner,
      body: { objectClass: "LOAN_DOCUMENT", ownerEntityType: "Loan", ownerEntityId: "l-1", originalFilename: "l.pdf", contentType: "application/pdf", fileSize: 10 },
    })).body.storedObject;
    const placer = await api.token("t1", { perms: ["stored_object:LEGAL_HOLD_PLACE", "stored_object:READ"] });
    expect((await api.rest("POST", `/api/v1/uploads/${object.id}/legal-hold`, { token: placer, body: { reason: "audit" } })).status).toBe(200);
    const release = await api.rest("DELETE", `/api/v1/uploads/${object.id}/legal-hold`, { token: placer });
    expect(release.status).toBe(403);
    expect(release.body.message).toBe("permission stored_object:LEGAL_HOLD_RELEASE is required");
    expect(api.objects.rows.get(object.id)?.legalHold?.reason).toBe("audit");
  });

  it("takes the tenant from the token, never from the request", async () => {
    const mine = await api.token("tenant-a");
    await api.client(CustomFieldsService, mine).createFieldDefinition({ entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "string" });
    expect([...api.fields.rows.values()].map((d) => d.tenantId)).toEqual(["tenant-a"]);
    const theirs = await api.client(CustomFieldsService, await api.token("tenant-b")).listFieldDefinitions({ entityType: "Customer" });
    expect(theirs.fieldDefinitions).toEqual([]);
  });
});

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}
