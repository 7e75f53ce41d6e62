/**
 * grpc.health.v1 as a gRPC client (grpc-js with the standard health.proto) expects it: per
 * service (the empty name and each service of the contract), NOT_FOUND for another name on Check,
 * SERVICE_UNKNOWN on Watch (the stream stays open), and every change of readiness sent to a Watch.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonApiServices } from "../../src/rpc/openapi/generate-openapi.js";
import { ensureBinary } from "../../src/stack/go-binaries.js";
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

/** grpc-health-probe's exit code and what it printed (0 serving, 3 the RPC failed, 4 not serving). */
function probe(binary: string, service?: string): Promise<{ code: number; output: string }> {
  const args = [`-addr=${new URL(apiUrl()).host}`, ...(service === undefined ? [] : [`-service=${service}`])];
  return new Promise((resolve) =>
    execFile(binary, args, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, output: `${stdout}${stderr}`.trim() })),
  );
}

/** Probes until `done` holds (readiness is re-checked every few seconds) or 30 s have passed; the last result. */
async function probeUntil(binary: string, done: (result: { code: number; output: string }) => boolean) {
  const deadline = Date.now() + 30_000;
  let result = await probe(binary);
  while (!done(result) && Date.now() < deadline) {
    await sleep(200);
    result = await probe(binary);
  }
  return result;
}

describe("grpc-health-probe, the probe Kubernetes users run", () => {
  let binary: string;
  beforeAll(async () => {
    binary = await ensureBinary("grpc-health-probe", { projectRoot: process.cwd(), log: () => undefined });
  });

  it("passes for the server and each service of the contract, fails for another name, and while a dependency is down", async () => {
    for (const service of [undefined, ...contractServices]) expect(await probe(binary, service), String(service)).toEqual({ code: 0, output: "status: SERVING" });
    const unknown = await probe(binary, "no.such.Service");
    expect(unknown.code).toBe(3);
    expect(unknown.output).toMatch(/code = NotFound/);
    await control("minio", "stop");
    try {
      const down = await probeUntil(binary, (result) => result.code !== 0);
      expect(down).toMatchObject({ code: 4 });
      expect(down.output).toMatch(/NOT_SERVING/);
    } finally {
      await control("minio", "start");
    }
    expect(await probeUntil(binary, (result) => result.code === 0)).toEqual({ code: 0, output: "status: SERVING" });
  });
});
