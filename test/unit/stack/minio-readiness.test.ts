import { describe, expect, it } from "vitest";
import { minioIsReady } from "../../../src/stack/minio-readiness.js";

// What MinIO's /minio/health/ready answers (cmd/healthcheck-handler.go): 200 while its object layer
// is still being set up, with x-minio-server-status: offline; S3 calls then fail with 503.
const answer = (status: number, serverStatus?: string) =>
  new Response(null, { status, headers: serverStatus === undefined ? {} : { "x-minio-server-status": serverStatus } });

describe("MinIO readiness", () => {
  it("is not ready while the listener answers 200 but the object layer is offline", () => {
    expect(minioIsReady(answer(200, "offline"))).toBe(false);
  });

  it("is ready on 200 without the offline status", () => {
    expect(minioIsReady(answer(200))).toBe(true);
  });

  it("is not ready on an error status", () => {
    expect(minioIsReady(answer(503))).toBe(false);
  });
});
