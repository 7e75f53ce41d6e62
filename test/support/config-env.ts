import type { Env } from "../../src/config/env.js";

/** The variables every configuration needs, pointing nowhere real: for tests of parseConfig. */
export const REQUIRED_ENV: Env = {
  DATABASE_URL: "postgres://u:p@localhost:5432/db",
  STORAGE_ENDPOINT: "http://localhost:9000",
  STORAGE_BUCKET: "b",
  STORAGE_ACCESS_KEY: "a",
  STORAGE_SECRET_KEY: "s",
  TEMPORAL_ADDRESS: "localhost:7233",
};

/** An Ed25519 key in the form AUDIT_SIGNING_KEY takes (its seed all sevens): for tests of parseConfig. */
export const TEST_AUDIT_SIGNING_KEY = `test-1:${Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), Buffer.alloc(32, 7)]).toString("base64")}`;

/** What the safe mode also requires: webhook and audit signing keys, a real HS256 secret, an issuer and an audience. */
export const SAFE_MODE_ENV: Env = {
  ...REQUIRED_ENV,
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 3).toString("base64"),
  AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY,
  AUTH_HS256_SECRET: "a-real-secret-of-at-least-32-bytes!",
  AUTH_ISSUER: "https://id.example",
  AUTH_AUDIENCE: "files",
};
