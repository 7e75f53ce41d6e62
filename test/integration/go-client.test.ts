/**
 * The contract's second language: clients/go/cmd/upload-example, built with the Go toolchain from
 * the module cache, uploads a file end to end with the generated connect-go clients (initiate,
 * PUT with the returned headers, complete with wait) and lists the custom-field definitions this
 * test created, over Connect and over gRPC.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../fixtures/files/index.js";
import { apiUrl, clientsFor, tokenFor, uniqueTenant } from "../support/clients.js";
import { runProcess } from "../support/cli-process.js";
import { go } from "../support/go-module.js";

describe("the Go client (clients/go)", () => {
  let dir: string;
  let program: string;
  let token: string;
  const photo = () => path.join(dir, "photo.png");
  const uploadExample = (...args: string[]) => runProcess(program, args, { env: { API_URL: apiUrl(), TOKEN: token } });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "go-client-"));
    program = path.join(dir, "upload-example");
    const built = await go(["build", "-o", program, "./cmd/upload-example"]);
    expect(built.stderr).toBe("");
    expect(built.code).toBe(0);
    writeFileSync(photo(), png(32, 24));
    token = await tokenFor(uniqueTenant("go"));
    const { fields } = clientsFor("connect", token);
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "string" });
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "vip", fieldLabel: "VIP", fieldType: "boolean" });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(["connect", "grpc"])("uploads a file to READY and lists the definitions over %s", async (protocol) => {
    const result = await uploadExample("-protocol", protocol, "-class", "USER_PROFILE_PHOTO", "-fields-of", "Customer", photo());
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    const [, id, status] = lines[0]!.match(/^object (\S+) (\S+)$/) ?? [];
    expect(status).toBe("READY");
    expect(lines.slice(1).sort()).toEqual(['field Customer tier string "Tier"', 'field Customer vip boolean "VIP"']);

    const { files } = clientsFor("connect", token);
    const { storedObject } = await files.getUpload({ objectId: id! });
    expect(storedObject).toMatchObject({ id, status: ObjectStatus.READY, contentType: "image/png", originalFilename: "photo.png" });
  });

  it("exits 1 with the API's refusal when the token is refused", async () => {
    const result = await runProcess(program, [photo()], { env: { API_URL: apiUrl(), TOKEN: "not-a-jwt" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^upload-example: InitiateUpload: unauthenticated: /);
  });
});
