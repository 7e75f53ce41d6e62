/** The token's identity claims become the principal's profile, which rules see as `user.*`. */
import { createContextValues, type HandlerContext } from "@connectrpc/connect";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { actorOf } from "../../../src/rpc/handlers/actor.js";
import { principalKey } from "../../../src/rpc/principal.js";
import { createTokenVerifier } from "../../../src/rpc/token-verifier.js";
import { ruleContext } from "../../../src/app/customfields/rule-context.js";
import { UNIT_SIGNING } from "../../support/tokens.js";

const verify = createTokenVerifier({ hs256Secret: UNIT_SIGNING.secret, issuer: UNIT_SIGNING.issuer, audience: UNIT_SIGNING.audience });

function sign(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ tid: "t1", perms: [], ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("u-1")
    .setIssuer(UNIT_SIGNING.issuer)
    .setAudience(UNIT_SIGNING.audience)
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(UNIT_SIGNING.secret));
}

describe("identity claims", () => {
  it("reads name, email, role and branch_id into user.* of the rule context, next to the id from sub", async () => {
    const principal = await verify(await sign({ name: "Ann", email: "ann@example.com", role: "sales", branch_id: "b-1" }));
    expect(principal.profile).toEqual({ name: "Ann", email: "ann@example.com", role: "sales", branchId: "b-1" });
    // actorOf reads only the context values the authentication interceptor sets.
    const actor = actorOf({ values: createContextValues().set(principalKey, principal) } as HandlerContext);
    const context = ruleContext(actor, { user: { id: "forged", role: "admin" } }, new Date(0));
    expect(context.user).toEqual({ id: "u-1", name: "Ann", email: "ann@example.com", role: "sales", branchId: "b-1" });
  });

  it("leaves out a claim that is not a string, and gives no profile without claims", async () => {
    expect((await verify(await sign({ role: ["admin"], name: "Bo" }))).profile).toEqual({ name: "Bo" });
    expect((await verify(await sign({}))).profile).toBeUndefined();
  });
});
