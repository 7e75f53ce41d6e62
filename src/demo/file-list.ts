import { toUploadedObject, type FileStorageClient, type UploadedObject } from "@files-and-fields/client/browser-uploader";
import { byId, el, errorText, formatBytes } from "./dom.js";

/** The owner's files (ListUploads) with download (CreateDownloadUrl) and delete buttons. */
export class FileList {
  private readonly rows = byId<HTMLTableSectionElement>("file-rows");
  private readonly error = byId("files-error");

  constructor(
    private readonly client: () => FileStorageClient,
    private readonly owner: () => { ownerEntityType: string; ownerEntityId: string },
  ) {}

  async refresh(): Promise<void> {
    const owner = this.owner();
    byId("owner-label").textContent = `${owner.ownerEntityType}/${owner.ownerEntityId}`;
    try {
      const answer = await this.client().listUploads({ ...owner, pageSize: 100 });
      const objects = answer.storedObjects.map(toUploadedObject);
      this.rows.replaceChildren(...(objects.length > 0 ? objects.map((o) => this.row(o)) : [this.emptyRow()]));
      this.error.textContent = "";
    } catch (error) {
      this.error.textContent = `Could not list the files: ${errorText(error)}`;
    }
  }

  private row(object: UploadedObject): HTMLTableRowElement {
    const download = el("button", { type: "button", class: "secondary download" }, "Download");
    download.disabled = object.status !== "READY";
    download.addEventListener("click", () => void this.download(object.id));
    const remove = el("button", { type: "button", class: "danger delete" }, "Delete");
    remove.addEventListener("click", () => void this.remove(object.id));
    const failed = object.scanResult?.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.reason}`) ?? [];
    return el(
      "tr",
      { "data-id": object.id, "data-filename": object.originalFilename, "data-status": object.status },
      el("td", {}, object.originalFilename),
      el("td", {}, object.objectClass),
      el("td", { title: failed.join("\n") }, object.status + (failed.length > 0 ? ` (${failed.join(", ")})` : "")),
      el("td", {}, formatBytes(object.fileSize)),
      el("td", {}, object.createdAt?.toLocaleString() ?? ""),
      el("td", { class: "actions" }, download, remove),
    );
  }

  private emptyRow(): HTMLTableRowElement {
    return el("tr", {}, el("td", { colspan: "6", class: "empty" }, "No files yet."));
  }

  /** The signed URL answers Content-Disposition: attachment, so following it downloads. */
  private async download(objectId: string): Promise<void> {
    try {
      const { downloadUrl } = await this.client().createDownloadUrl({ objectId, disposition: "attachment" });
      el("a", { href: downloadUrl, rel: "noopener" }).click();
    } catch (error) {
      this.error.textContent = `Download failed: ${errorText(error)}`;
    }
  }

  private async remove(objectId: string): Promise<void> {
    try {
      await this.client().deleteUpload({ objectId });
      await this.refresh();
    } catch (error) {
      this.error.textContent = `Delete failed: ${errorText(error)}`;
    }
  }
}
