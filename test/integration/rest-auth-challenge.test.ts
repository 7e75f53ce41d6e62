/**
 * RFC 6750 over the JSON API, as curl or any HTTP client sees it: a 401 names the Bearer scheme
 * in `WWW-Authenticate` (with `error="invalid_token"` only when a bearer token was sent), a 403
 * for a missing permission says `error="insufficient_scope"`. The error body stays Connect's.
 */
import { describe, expect, it } from "vitest";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { reasonOf } from "../support/errors.js";

const REALM = 'realm="files-and-fields"';

describe("REST WWW-Authenticate challenges", () => {
  it.each([
    ["no credentials", {}],
    ["Basic credentials", { authorization: "Basic dXNlcjpwYXNz" }],
    ["an empty Bearer", { authorization: "Bearer" }],
  ])("answers 401 with a bare Bearer challenge to %s", async (_, headers) => {
    const res = await rest("GET", "/api/v1/uploads", { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer ${REALM}`);
    expect(res.body.code).toBe("unauthenticated");
    expect(reasonOf(res.body)).toBe("UNAUTHENTICATED");
  });

  it("answers 401 with error=\"invalid_token\" to a bearer token it does not accept", async () => {
    for (const token of ["not-a-jwt", await tokenFor(uniqueTenant(), { secret: "another-secret" }), await tokenFor(uniqueTenant(), { expiresIn: "-5m" })]) {
      const res = await rest("GET", "/api/v1/uploads", { token });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe(`Bearer ${REALM}, error="invalid_token"`);
      expect(reasonOf(res.body)).toBe("UNAUTHENTICATED");
    }
  });

  it("answers 403 with error=\"insufficient_scope\" to a token without the permission, on unary and streaming routes", async () => {
    const token = await tokenFor(uniqueTenant(), { perms: ["stored_object:READ"] });
    for (const path of ["/api/v1/audit-entries", "/api/v1/audit-entries:export"]) {
      const res = await rest("GET", path, { token });
      expect(res.status, path).toBe(403);
      expect(res.headers.get("www-authenticate"), path).toBe(`Bearer ${REALM}, error="insufficient_scope"`);
      expect(reasonOf(res.body), path).toBe("PERMISSION_DENIED");
    }
  });

  it("sends no challenge with answers that are not about the token", async () => {
    const token = await tokenFor(uniqueTenant());
    const notFound = await rest("GET", "/api/v1/uploads/0190a6f4-0000-7000-8000-000000000000", { token });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("www-authenticate")).toBeNull();
  });
});
