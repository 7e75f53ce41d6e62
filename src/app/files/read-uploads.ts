import type { Actor } from "../../domain/actor.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";
import { readPage, type Page } from "../../domain/pagination.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";
import type { ListFilter } from "./port.js";

export async function getUpload(deps: FileStorageDeps, actor: Actor, objectId: string): Promise<StoredObjectView> {
  return findOrFail(deps, actor, objectId);
}

export async function listUploads(
  deps: FileStorageDeps,
  actor: Actor,
  filter: ListFilter,
  pageSize: number,
  pageToken: string,
): Promise<Page<StoredObjectView>> {
  return readPage(
    { pageSize, pageToken, filterKey: JSON.stringify(filter) },
    (after, limit) => deps.store.list(actor.tenantId, filter, after, limit),
    (object) => ({ at: new Date(object.createdAt), id: object.id }),
  );
}

