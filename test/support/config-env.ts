import type { Env } from "../../src/config.js";

/** The variables every configuration needs, pointing nowhere real: for tests of parseConfig. */
export const REQUIRED_ENV: Env = {
  DATABASE_URL: "postgres://u:p@localhost:5432/db",
  STORAGE_ENDPOINT: "http://localhost:9000",
  STORAGE_BUCKET: "b",
  STORAGE_ACCESS_KEY: "a",
  STORAGE_SECRET_KEY: "s",
  TEMPORAL_ADDRESS: "localhost:7233",
};

/** What the safe mode also requires: a webhook secret key, a real HS256 secret, an issuer and an audience. */
export const SAFE_MODE_ENV: Env = {
  ...REQUIRED_ENV,
  WEBHOOK_SECRET_KEY: Buffer.alloc(32, 3).toString("base64"),
  AUTH_HS256_SECRET: "a-real-secret-of-at-least-32-bytes!",
  AUTH_ISSUER: "https://id.example",
  AUTH_AUDIENCE: "files",
};
