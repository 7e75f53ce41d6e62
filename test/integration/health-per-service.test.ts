/**
 * grpc.health.v1 as a gRPC client (grpc-js with the standard health.proto) expects it: per
 * service (the empty name and each service of the contract), NOT_FOUND for another name on Check,
 * SERVICE_UNKNOWN on Watch (the stream stays open), and every change of readiness sent to a Watch.
 */
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonApiServices } from "../../src/rpc/openapi/generate-openapi.js";
import { apiUrl } from "../support/clients.js";
import { control } from "../support/control.js";
import { sleep } from "../support/stack-access.js";

type HealthClient = grpc.Client & {
  check(request: object, callback: (error: grpc.ServiceError | null, response?: { status: string }) => void): void;
  watch(request: object): grpc.ClientReadableStream<{ status: string }>;
};

let health: HealthClient;
beforeAll(() => {
  const definition = protoLoader.loadSync("grpc/health/v1/health.proto", { includeDirs: [path.join(process.cwd(), ".proto-deps")], enums: String, defaults: true });
  const loaded = grpc.loadPackageDefinition(definition) as any;
  health = new loaded.grpc.health.v1.Health(new URL(apiUrl()).host, grpc.credentials.createInsecure());
});
afterAll(() => health?.close());

function check(service: string): Promise<string> {
  return new Promise((resolve) => health.check({ service }, (error, response) => resolve(error ? grpc.status[error.code] : response!.status)));
}

/** A Watch that keeps every answer and how it ended, if it did. */
function watch(service: string) {
  const call = health.watch({ service });
  const seen = { answers: [] as string[], ended: undefined as string | undefined };
  call.on("data", (answer: { status: string }) => seen.answers.push(answer.status));
  call.on("error", () => undefined);
  call.on("status", (status: grpc.StatusObject) => (seen.ended = grpc.status[status.code]));
  return { call, seen };
}

/** Waits for a Watch to have sent `count` answers, failing with what it saw when it did not within the bound. */
async function answersOf(watched: ReturnType<typeof watch>, count: number, withinMs = 30_000): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  while (watched.seen.answers.length < count && watched.seen.ended === undefined && Date.now() < deadline) await sleep(100);
  expect(watched.seen.answers.length, `answers: ${watched.seen.answers.join(", ")}; ended: ${watched.seen.ended}`).toBeGreaterThanOrEqual(count);
  return watched.seen.answers;
}

const contractServices = jsonApiServices.map((service) => service.typeName);

describe("gRPC health per service", () => {
  it("Check answers SERVING for the server and each service of the contract, NOT_FOUND for any other name", async () => {
    expect(await check("")).toBe("SERVING");
    for (const service of [...contractServices, "grpc.health.v1.Health"]) expect(await check(service), service).toBe("SERVING");
    for (const service of ["no.such.Service", "filestorage.v1", "filestorage.v1.FileStorageService/GetUpload"]) expect(await check(service), service).toBe("NOT_FOUND");
  });

  it("Watch sends SERVICE_UNKNOWN for another name and stays open; for known names it sends each change of readiness", async () => {
    const unknown = watch("no.such.Service");
    const server = watch("");
    const files = watch("filestorage.v1.FileStorageService");
    try {
      expect(await answersOf(unknown, 1)).toEqual(["SERVICE_UNKNOWN"]);
      expect(await answersOf(server, 1)).toEqual(["SERVING"]);
      expect(await answersOf(files, 1)).toEqual(["SERVING"]);
      await control("minio", "stop");
      try {
        expect(await answersOf(server, 2)).toEqual(["SERVING", "NOT_SERVING"]);
        expect(await answersOf(files, 2)).toEqual(["SERVING", "NOT_SERVING"]);
      } finally {
        await control("minio", "start");
      }
      expect(await answersOf(server, 3)).toEqual(["SERVING", "NOT_SERVING", "SERVING"]);
      expect(await answersOf(files, 3)).toEqual(["SERVING", "NOT_SERVING", "SERVING"]);
      // Across all of that the unknown name's Watch said one thing and did not end.
      expect(unknown.seen).toEqual({ answers: ["SERVICE_UNKNOWN"], ended: undefined });
    } finally {
      for (const { call } of [unknown, server, files]) call.cancel();
    }
  });
});
