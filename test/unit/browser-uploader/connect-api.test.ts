import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { FileStorageService } from "@files-and-fields/client/gen/filestorage/v1/file_storage_service_pb.js";
import { ObjectClass, ObjectStatus, StoredObjectSchema } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { createConnectUploadApi } from "../../../packages/client/src/browser-uploader/connect-api.js";
import { ApiError } from "../../../packages/client/src/browser-uploader/errors.js";
import { AppError } from "../../../src/domain/errors.js";
import { toConnectError } from "../../../src/rpc/errors.js";

const expiresAt = new Date("2030-01-01T00:00:00Z");
const stored = (status: ObjectStatus) =>
  create(StoredObjectSchema, {
    id: "0190f0c0-0000-7000-8000-000000000001",
    status,
    objectClass: ObjectClass.USER_PROFILE_PHOTO,
    fileSize: 1234n,
    originalFilename: "me.png",
    scanResult: { passed: false, checks: [{ name: "magic_bytes", passed: false, reason: "MAGIC_BYTES_MISMATCH", message: "not a PNG" }] },
  });

function api() {
  const seen: unknown[] = [];
  const transport = createRouterTransport(({ service }) =>
    service(FileStorageService, {
      initiateUpload(request) {
        seen.push(request);
        return {
          storedObject: stored(ObjectStatus.PENDING_UPLOAD),
          uploadUrl: "https://storage.test/put",
          uploadHeaders: { "content-type": "image/png" },
          uploadUrlExpiresAt: timestampFromDate(expiresAt),
        };
      },
      completeUpload() {
        throw toConnectError(new AppError("UPLOAD_URL_EXPIRED", "the upload URL expired"));
      },
      getUpload: () => ({ storedObject: stored(ObjectStatus.REJECTED) }),
    }),
  );
  return { api: createConnectUploadApi(createClient(FileStorageService, transport)), seen };
}

describe("the uploader's API through the Connect client", () => {
  const signal = new AbortController().signal;

  it("sends the class as its enum value and the size as int64; answers plain values", async () => {
    const { api: uploadApi, seen } = api();
    const started = await uploadApi.initiate(
      { objectClass: "USER_PROFILE_PHOTO", ownerEntityType: "User", ownerEntityId: "u1", originalFilename: "me.png", contentType: "image/png", fileSize: 1234, acceptMultipart: true },
      signal,
    );
    expect(seen[0]).toMatchObject({ objectClass: ObjectClass.USER_PROFILE_PHOTO, fileSize: 1234n });
    expect(started.object).toMatchObject({ status: "PENDING_UPLOAD", objectClass: "USER_PROFILE_PHOTO", fileSize: 1234 });
    expect(started.target).toEqual({ url: "https://storage.test/put", headers: { "content-type": "image/png" }, expiresAt });
  });

  it("maps the scan result's checks", async () => {
    const object = await api().api.getUpload("0190f0c0-0000-7000-8000-000000000001", signal);
    expect(object.status).toBe("REJECTED");
    expect(object.scanResult?.checks[0]).toEqual({ name: "magic_bytes", passed: false, reason: "MAGIC_BYTES_MISMATCH", message: "not a PNG" });
  });

  it("throws ApiError with the code name and the ErrorInfo reason", async () => {
    const error = await api().api.complete("0190f0c0-0000-7000-8000-000000000001", { waitForResult: false }, signal).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "invalid_argument", reason: "UPLOAD_URL_EXPIRED", message: "the upload URL expired" });
  });

  it("derives the reason from the code when the error has no ErrorInfo", async () => {
    const error = await api().api.refreshUploadUrl("0190f0c0-0000-7000-8000-000000000001", signal).catch((e) => e);
    expect(error).toMatchObject({ code: "unimplemented", reason: "UNIMPLEMENTED" });
  });
});
