/**
 * AUDIT_SIGNING_KEY and AUDIT_RETIRED_PUBLIC_KEYS: required outside development mode, refused
 * when they do not hold Ed25519 keys under distinct ids, and turned into the key ring that
 * verifies checkpoints of every key, current and retired.
 */
import { createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { auditKeySettings, DEVELOPMENT_AUDIT_KEY_ID, parseAuditSigningKeys } from "../../../src/config/audit.js";
import { ConfigError } from "../../../src/config/config-error.js";
import { parseConfig } from "../../../src/config/config.js";
import type { Env } from "../../../src/config/env.js";
import { SAFE_MODE_ENV } from "../../support/config-env.js";

const fresh = (keyId: string) => auditKeySettings(keyId, generateKeyPairSync("ed25519").privateKey);

function refusal(env: Env, developmentMode = false): ConfigError {
  try {
    parseAuditSigningKeys(env, developmentMode);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("the keys were accepted");
}

describe("the audit signing key", () => {
  it("is required without DEVELOPMENT_MODE, naming the variable and how to make one", () => {
    const error = refusal({});
    expect(error.variable).toBe("AUDIT_SIGNING_KEY");
    expect(error.message).toContain("npm run audit:keygen");
    expect(() => parseConfig({ ...SAFE_MODE_ENV, AUDIT_SIGNING_KEY: undefined })).toThrow(/^AUDIT_SIGNING_KEY: is required/);
  });

  it("signs with the configured key, whose public key the ring and the published list carry", () => {
    const key = fresh("key-2026-03");
    const { signingKeys, developmentKey } = parseAuditSigningKeys({ AUDIT_SIGNING_KEY: key.signingKey }, false);
    expect(developmentKey).toBe(false);
    expect(signingKeys.current.keyId).toBe("key-2026-03");
    const signature = sign(null, Buffer.from("payload"), signingKeys.current.privateKey);
    expect(verify(null, Buffer.from("payload"), signingKeys.ring.get("key-2026-03")!, signature)).toBe(true);
    expect(signingKeys.published).toEqual([{ keyId: "key-2026-03", publicKeyPem: key.publicKeyPem, current: true }]);
  });

  it("is a deterministic development key with DEVELOPMENT_MODE and none given", () => {
    const first = parseAuditSigningKeys({}, true);
    const second = parseAuditSigningKeys({}, true);
    expect(first.developmentKey).toBe(true);
    expect(first.signingKeys.current.keyId).toBe(DEVELOPMENT_AUDIT_KEY_ID);
    expect(first.signingKeys.published[0]!.publicKeyPem).toBe(second.signingKeys.published[0]!.publicKeyPem);
    expect(parseConfig({ ...SAFE_MODE_ENV, AUDIT_SIGNING_KEY: undefined, DEVELOPMENT_MODE: "true", AUTH_ISSUER: undefined, AUTH_AUDIENCE: undefined }).audit.developmentKey).toBe(true);
  });

  it("prefers a configured key to the development one in development mode", () => {
    const key = fresh("mine");
    expect(parseAuditSigningKeys({ AUDIT_SIGNING_KEY: key.signingKey }, true)).toMatchObject({ developmentKey: false, signingKeys: { current: { keyId: "mine" } } });
  });

  it.each([
    ["no id", (k: string) => k.slice(k.indexOf(":") + 1), /<keyId>:<base64/],
    ["an id with a space", (k: string) => `my key${k.slice(k.indexOf(":"))}`, /<keyId>:<base64/],
    ["bad base64", (k: string) => `${k}!`, /not valid base64/],
    ["bytes that are no PKCS#8 key", () => `k:${Buffer.alloc(48, 1).toString("base64")}`, /not a PKCS#8 DER private key/],
    ["a public key in its place", () => fresh("k").retiredPublicKey, /not a PKCS#8 DER private key/],
  ])("refuses %s", (_name, mangle, message) => {
    const error = refusal({ AUDIT_SIGNING_KEY: mangle(fresh("k").signingKey) });
    expect(error.variable).toBe("AUDIT_SIGNING_KEY");
    expect(error.message).toMatch(message);
  });

  it("refuses a key of another algorithm", () => {
    const p256 = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "der", type: "pkcs8" }).toString("base64");
    expect(refusal({ AUDIT_SIGNING_KEY: `k:${p256}` }).message).toBe('AUDIT_SIGNING_KEY: key "k": an ec key, not Ed25519');
  });
});

describe("retired public keys", () => {
  it("verify the checkpoints of their own ids, listed as not current", () => {
    const current = fresh("key-2");
    const oldPair = generateKeyPairSync("ed25519");
    const old = auditKeySettings("key-1", oldPair.privateKey);
    const older = fresh("key-0");
    const { signingKeys } = parseAuditSigningKeys({ AUDIT_SIGNING_KEY: current.signingKey, AUDIT_RETIRED_PUBLIC_KEYS: ` ${old.retiredPublicKey} , ${older.retiredPublicKey},` }, false);
    expect([...signingKeys.ring.keys()]).toEqual(["key-2", "key-1", "key-0"]);
    const signature = sign(null, Buffer.from("old checkpoint"), oldPair.privateKey);
    expect(verify(null, Buffer.from("old checkpoint"), signingKeys.ring.get("key-1")!, signature)).toBe(true);
    expect(signingKeys.published.map((k) => [k.keyId, k.current])).toEqual([["key-2", true], ["key-1", false], ["key-0", false]]);
    expect(createPublicKey(signingKeys.published[1]!.publicKeyPem).equals(createPublicKey(oldPair.privateKey))).toBe(true);
  });

  it("refuses an id given twice", () => {
    const env = { AUDIT_SIGNING_KEY: fresh("key-2").signingKey, AUDIT_RETIRED_PUBLIC_KEYS: `${fresh("key-1").retiredPublicKey},${fresh("key-1").retiredPublicKey}` };
    expect(refusal(env).message).toBe('AUDIT_RETIRED_PUBLIC_KEYS: key "key-1" is given twice');
  });

  it("refuses the current key's id", () => {
    const env = { AUDIT_SIGNING_KEY: fresh("key-2").signingKey, AUDIT_RETIRED_PUBLIC_KEYS: fresh("key-2").retiredPublicKey };
    expect(refusal(env).message).toMatch(/^AUDIT_RETIRED_PUBLIC_KEYS: key "key-2" is the id of AUDIT_SIGNING_KEY/);
  });

  it("refuses the development key's id in development mode too", () => {
    expect(refusal({ AUDIT_RETIRED_PUBLIC_KEYS: fresh(DEVELOPMENT_AUDIT_KEY_ID).retiredPublicKey }, true).variable).toBe("AUDIT_RETIRED_PUBLIC_KEYS");
  });

  it.each([
    ["bad base64", () => "key-1:not*base64", /not valid base64/],
    ["a private key in its place", () => fresh("key-1").signingKey, /not a SPKI DER public key/],
    ["a key of another algorithm", () => `key-1:${generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "der", type: "spki" }).toString("base64")}`, /an ec key, not Ed25519/],
  ])("refuses %s", (_name, entry, message) => {
    const error = refusal({ AUDIT_SIGNING_KEY: fresh("key-2").signingKey, AUDIT_RETIRED_PUBLIC_KEYS: entry() });
    expect(error.variable).toBe("AUDIT_RETIRED_PUBLIC_KEYS");
    expect(error.message).toMatch(message);
  });
});

describe("the checkpoint interval", () => {
  it("is an hour by default and configurable", () => {
    expect(parseConfig(SAFE_MODE_ENV).audit.checkpointIntervalSeconds).toBe(3600);
    expect(parseConfig({ ...SAFE_MODE_ENV, AUDIT_CHECKPOINT_INTERVAL_SECONDS: "60" }).audit.checkpointIntervalSeconds).toBe(60);
    expect(() => parseConfig({ ...SAFE_MODE_ENV, AUDIT_CHECKPOINT_INTERVAL_SECONDS: "0" })).toThrow(/^AUDIT_CHECKPOINT_INTERVAL_SECONDS/);
  });
});
