import type { Actor, StoredObjectView } from "../../domain/files/stored-object.js";
import { decodePageToken, encodePageToken, pageSizeOf } from "../../domain/pagination.js";
import { findOrFail, type FileStorageDeps } from "./deps.js";
import type { ListFilter } from "./port.js";

export async function getUpload(deps: FileStorageDeps, actor: Actor, objectId: string): Promise<StoredObjectView> {
  return findOrFail(deps, actor, objectId);
}

export interface Page<T> {
  items: T[];
  nextPageToken: string;
}

export async function listUploads(
  deps: FileStorageDeps,
  actor: Actor,
  filter: ListFilter,
  pageSize: number,
  pageToken: string,
): Promise<Page<StoredObjectView>> {
  const limit = pageSizeOf(pageSize);
  const filterKey = JSON.stringify(filter);
  const after = decodePageToken(pageToken, filterKey);
  const rows = await deps.store.list(actor.tenantId, filter, after, limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextPageToken =
    rows.length > limit && last ? encodePageToken({ createdAt: new Date(last.createdAt), id: last.id }, filterKey) : "";
  return { items, nextPageToken };
}

export async function listAuditEntries(deps: FileStorageDeps, actor: Actor, objectId: string, pageSize: number, pageToken: string) {
  await findOrFail(deps, actor, objectId);
  const limit = pageSizeOf(pageSize);
  const filterKey = `audit:${objectId}`;
  const after = decodePageToken(pageToken, filterKey);
  const rows = await deps.store.listAudit(actor.tenantId, objectId, after, limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextPageToken = rows.length > limit && last ? encodePageToken({ createdAt: last.occurredAt, id: last.id }, filterKey) : "";
  return { items, nextPageToken };
}
