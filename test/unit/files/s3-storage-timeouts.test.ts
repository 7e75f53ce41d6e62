/**
 * An S3 endpoint that accepts the TCP connection and then never answers: every call gives up
 * with `DEPENDENCY_UNAVAILABLE` after its bounded attempts instead of hanging (and holding its
 * caller) forever. The endpoint is a local `net` server that reads and never writes.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openS3ObjectStorage } from "../../../src/adapters/s3/s3-object-storage.js";
import type { StorageConfig } from "../../../src/config/storage.js";
import { AppError } from "../../../src/domain/errors.js";

let silent: net.Server;
let accepted = 0;
const held = new Set<net.Socket>();

beforeAll(async () => {
  silent = net.createServer((socket) => {
    accepted++;
    held.add(socket);
    socket.resume();
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

function config(port: number): StorageConfig {
  return {
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    bucket: "files",
    accessKey: "key",
    secretKey: "secret",
    forcePathStyle: true,
    presignUploadExpirySeconds: 300,
    presignDownloadExpirySeconds: 900,
    multipartThresholdBytes: 16 * 1024 * 1024,
    multipartPartSizeBytes: 8 * 1024 * 1024,
    presignPartExpirySeconds: 3600,
    maxPendingUploadsPerTenant: 1000,
    maxFileSizeBytes: 1024,
    classMaxFileSizeBytes: {},
    objectLock: false,
    connectTimeoutSeconds: 1,
    requestTimeoutSeconds: 1,
    socketIdleTimeoutSeconds: 1,
    maxSockets: 4,
    maxAttempts: 2,
  };
}

describe("S3 client against an endpoint that never answers", () => {
  it("fails a call with a clear error after its attempts instead of hanging", { timeout: 20_000 }, async () => {
    const { port } = silent.address() as net.AddressInfo;
    const { storage, close } = openS3ObjectStorage(config(port));
    try {
      const error = await storage.head("some/key").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).reason).toBe("DEPENDENCY_UNAVAILABLE");
      expect((error as AppError).message).toMatch(/^object storage unavailable \(head\): .*(timed out|timeout)/i);
      expect(accepted).toBeGreaterThanOrEqual(1);
      expect(accepted).toBeLessThanOrEqual(2);
    } finally {
      await close();
    }
  });
});
