/** `npm run token` and the CLI sign what a development-mode API verifies, and a real secret only when asked. */
import { describe, expect, it } from "vitest";
import { DevTokenRefused, signDevToken } from "../../../src/cli/dev-token-from-env.js";
import { DEVELOPMENT_JWT_SECRET, parseAuth } from "../../../src/config/auth.js";
import { createTokenVerifier } from "../../../src/rpc/token-verifier.js";

const request = { tenant: "acme", user: "alice" };
const REAL = { AUTH_HS256_SECRET: "a-real-secret-of-at-least-32-bytes!", AUTH_ISSUER: "https://id.example", AUTH_AUDIENCE: "files" };

describe("development tokens from the environment", () => {
  it("sign with the development secret, issuer and audience, which only a development-mode API accepts", async () => {
    const token = await signDevToken(request, {});
    expect(await createTokenVerifier(parseAuth({ DEVELOPMENT_MODE: "true" }, true))(token)).toMatchObject({ tenantId: "acme", actorId: "alice" });
    await expect(createTokenVerifier(parseAuth(REAL, false))(token)).rejects.toThrow("signature verification failed");
  });

  it("sign with AUTH_HS256_SECRET and the configured issuer and audience only with DEVELOPMENT_MODE=true", async () => {
    await expect(signDevToken(request, REAL)).rejects.toBeInstanceOf(DevTokenRefused);
    const token = await signDevToken(request, { ...REAL, DEVELOPMENT_MODE: "true" });
    expect(await createTokenVerifier(parseAuth(REAL, false))(token)).toMatchObject({ tenantId: "acme" });
  });

  it("refuse when the API verifies JWKS tokens only, or the settings are wrong", async () => {
    await expect(signDevToken(request, { AUTH_JWKS_URL: "https://id.example/jwks.json" })).rejects.toThrow("JWKS tokens only");
    await expect(signDevToken(request, { AUTH_HS256_SECRET: "short" })).rejects.toThrow("AUTH_HS256_SECRET: must be at least 32 bytes");
    expect(DEVELOPMENT_JWT_SECRET.length).toBeGreaterThanOrEqual(32);
  });
});
