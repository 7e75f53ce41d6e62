import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { ObjectClass, ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { createBrowserClients } from "@files-and-fields/client/browser";
import { createNodeClients, type ApiClients, type ClientOptions } from "@files-and-fields/client/node";
import { apiUrl, tokenFor, uniqueTenant } from "../support/clients.js";

const variants: [string, (options: ClientOptions) => ApiClients][] = [
  ["createNodeClients (gRPC)", createNodeClients],
  ["createBrowserClients (Connect over fetch)", createBrowserClients],
];

describe.each(variants)("%s", (_name, create) => {
  it("initiates an upload and gets it back", async () => {
    const { files } = create({ baseUrl: apiUrl(), token: await tokenFor(uniqueTenant()) });
    const started = await files.initiateUpload({
      objectClass: ObjectClass.USER_PROFILE_PHOTO,
      ownerEntityType: "User",
      ownerEntityId: "u1",
      originalFilename: "me.png",
      contentType: "image/png",
      fileSize: 1234n,
    });
    expect(started.uploadUrl).toMatch(/^http/);
    const { storedObject } = await files.getUpload({ objectId: started.storedObject!.id });
    expect(storedObject).toMatchObject({ id: started.storedObject!.id, status: ObjectStatus.PENDING_UPLOAD, fileSize: 1234n });
  });

  it("creates and lists field definitions", async () => {
    const { fields } = create({ baseUrl: apiUrl(), token: await tokenFor(uniqueTenant()) });
    await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "string" });
    const { fieldDefinitions } = await fields.listFieldDefinitions({ entityType: "Customer" });
    expect(fieldDefinitions.map((d) => d.fieldKey)).toEqual(["tier"]);
  });

  it("asks a token function before every call", async () => {
    const tenant = uniqueTenant();
    let asked = 0;
    const { customers } = create({ baseUrl: apiUrl(), token: () => (asked++, tokenFor(tenant)) });
    await customers.listCustomers({});
    await customers.listCustomers({});
    expect(asked).toBe(2);
  });

  it("surfaces a refused token as a ConnectError", async () => {
    const { customers } = create({ baseUrl: apiUrl(), token: "not-a-jwt" });
    await expect(customers.listCustomers({})).rejects.toSatisfy((e: unknown) => ConnectError.from(e).code === Code.Unauthenticated);
  });
});
