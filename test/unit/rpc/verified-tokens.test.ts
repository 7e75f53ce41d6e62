/** A verified token is remembered by its exact text until it would be refused, never longer. */
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createTokenVerifier } from "../../../src/rpc/token-verifier.js";
import { VerifiedTokenCache } from "../../../src/rpc/verified-token-cache.js";
import { UNIT_SIGNING } from "../../support/tokens.js";

describe("VerifiedTokenCache", () => {
  it("answers a stored token until it would be refused, capped by the TTL", () => {
    const cache = new VerifiedTokenCache<string>(10, 60_000);
    expect(cache.get("a", 0)).toBeUndefined();
    cache.set("a", "A", 5_000, 0);
    cache.set("b", "B", 500_000, 0);
    expect(cache.get("a", 4_999)).toBe("A");
    expect(cache.get("a", 5_000)).toBeUndefined();
    expect(cache.get("b", 59_999)).toBe("B");
    expect(cache.get("b", 60_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("does not store a token that is already refused, and drops the oldest when full", () => {
    const cache = new VerifiedTokenCache<string>(2, 60_000);
    cache.set("expired", "X", 1_000, 1_000);
    expect(cache.size).toBe(0);
    cache.set("a", "A", 10_000, 0);
    cache.set("b", "B", 10_000, 0);
    cache.set("c", "C", 10_000, 0);
    expect([cache.get("a", 1), cache.get("b", 1), cache.get("c", 1)]).toEqual([undefined, "B", "C"]);
  });
});

describe("the token verifier's memory", () => {
  const TOLERANCE_SECONDS = 30;
  const issuedAt = Math.floor(Date.now() / 1000);
  const exp = issuedAt + 120;
  let clock = issuedAt * 1000;
  const verify = createTokenVerifier({
    hs256Secret: UNIT_SIGNING.secret,
    issuer: UNIT_SIGNING.issuer,
    audience: UNIT_SIGNING.audience,
    clockToleranceSeconds: TOLERANCE_SECONDS,
    now: () => clock,
  });
  const sign = (secret = UNIT_SIGNING.secret) =>
    new SignJWT({ tid: "t1", perms: ["files:read"] })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("u-1")
      .setIssuer(UNIT_SIGNING.issuer)
      .setAudience(UNIT_SIGNING.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(secret));

  it("serves the same token from memory, refuses another signature, and forgets at exp plus the tolerance", async () => {
    const token = await sign();
    clock = issuedAt * 1000;
    const first = await verify(token);
    expect(await verify(token)).toBe(first);

    const forged = await sign("another-secret-that-is-at-least-32-bytes-long");
    await expect(verify(forged)).rejects.toMatchObject({ reason: "UNAUTHENTICATED" });

    clock = (exp + TOLERANCE_SECONDS) * 1000 - 1;
    expect((await verify(token)).actorId).toBe("u-1");
    clock = (exp + TOLERANCE_SECONDS) * 1000 + 1;
    await expect(verify(token)).rejects.toMatchObject({ reason: "UNAUTHENTICATED" });
  });
});
