/**
 * The Uppy page (/demo/uppy): @uppy/core with @uppy/aws-s3, configured by the client package's
 * adapter, uploads the chosen files (autoProceed), then completes each and shows its object's
 * status once the scan ended. Each file's row carries data- attributes: state (Uppy's side:
 * uploading, uploaded, error), multipart, parts (the parts Uppy sent), object-id, status.
 */
import Uppy, { type Meta, type UppyFile } from "@uppy/core";
import AwsS3, { type AwsBody } from "@uppy/aws-s3";
import { createFileStorageClient, toApiError, type FileStorageClient } from "@files-and-fields/client/browser-uploader";
import { ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { uppyAwsS3Options } from "@files-and-fields/client/uppy";
import { byId, el, errorText, formatBytes } from "./dom.js";

type File = UppyFile<Meta, AwsBody>;

const END = new Set([ObjectStatus.READY, ObjectStatus.REJECTED, ObjectStatus.QUARANTINED]);
const POLL_MS = 1_000;

let token = "";
const client: FileStorageClient = createFileStorageClient({ baseUrl: location.origin, token: () => token });
const input = byId<HTMLInputElement>("file");
const options = uppyAwsS3Options(client, () => ({
  objectClass: byId<HTMLSelectElement>("objectClass").value,
  ownerEntityType: byId<HTMLInputElement>("ownerType").value.trim(),
  ownerEntityId: byId<HTMLInputElement>("ownerId").value.trim(),
}));
const uppy = new Uppy<Meta, AwsBody>({ autoProceed: true }).use(AwsS3, options);

const rows = new Map<string, HTMLLIElement>();
const row = (file: File) => rows.get(file.id)!;

function show(file: File, attributes: Record<string, string>, detail?: string): void {
  const item = row(file);
  for (const [name, value] of Object.entries(attributes)) item.setAttribute(`data-${name}`, value);
  item.querySelector(".status")!.textContent = item.dataset.status ?? item.dataset.state ?? "";
  if (detail !== undefined) item.querySelector(".detail")!.textContent = detail;
}

uppy.on("file-added", (file) => {
  const multipart = options.shouldUseMultipart(file);
  const item = el(
    "li",
    { class: "file", "data-filename": file.name ?? "", "data-state": "uploading", "data-multipart": String(multipart), "data-parts": "0" },
    el("span", { class: "name" }, file.name ?? ""),
    el("span", {}, `${formatBytes(file.size ?? 0)}${multipart ? ", in parts" : ", one PUT"}`),
    el("span", { class: "status" }, "uploading"),
    el("progress", { max: "100", value: "0" }),
    el("span", { class: "detail" }),
  );
  rows.set(file.id, item);
  byId("files").prepend(item);
});

uppy.on("upload-progress", (file, progress) => {
  if (!file || !progress.bytesTotal) return;
  row(file).querySelector("progress")!.value = Math.floor((100 * progress.bytesUploaded) / progress.bytesTotal);
});

uppy.on("s3-multipart:part-uploaded", (file) => {
  show(file, { parts: String(Number(row(file).dataset.parts) + 1) });
});

uppy.on("upload-error", (file, error) => {
  if (file) show(file, { state: "error" }, errorText(error));
});

uppy.on("upload-success", (file, response) => {
  const objectId = response.body?.key;
  if (!file || !objectId) return;
  show(file, { state: "uploaded", "object-id": objectId }, `object ${objectId}: scanning`);
  void settle(file, objectId).catch((error) => show(file, { state: "error" }, errorText(toApiError(error))));
});

/** Completes the upload (a multipart one already is; complete is idempotent), then follows the object until its scan ended. */
async function settle(file: File, objectId: string): Promise<void> {
  let stored = (await client.completeUpload({ objectId, waitForResult: true })).storedObject;
  while (stored && !END.has(stored.status)) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    stored = (await client.getUpload({ objectId })).storedObject;
  }
  const failed = stored?.scanResult?.checks.filter((check) => !check.passed).map((check) => `${check.name}: ${check.reason}`);
  show(file, { status: ObjectStatus[stored?.status ?? ObjectStatus.OBJECT_STATUS_UNSPECIFIED] }, failed?.length ? failed.join(", ") : `object ${objectId}`);
}

input.addEventListener("change", () => {
  for (const data of Array.from(input.files ?? [])) uppy.addFile({ name: data.name, type: data.type, data, source: "file input" });
  input.value = "";
});

async function getToken(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const tenant = params.get("tenant") ?? "demo";
  const user = params.get("user") ?? "demo-user";
  const res = await fetch(`/demo/token?${new URLSearchParams({ tenant, user })}`);
  if (!res.ok) throw new Error(`no development token (${res.status}): ${await res.text()}`);
  token = ((await res.json()) as { token: string }).token;
  byId("token-status").textContent = `Token for tenant "${tenant}", user "${user}".`;
  input.disabled = false;
}

getToken().catch((error) => (byId("token-status").textContent = errorText(error)));
