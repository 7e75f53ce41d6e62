import type { MikroORM } from "@mikro-orm/postgresql";
import type { UploadSession } from "../../app/files/port.js";
import type { ObjectRecord } from "../../domain/files/stored-object.js";
import { withDatabase } from "./database-work.js";
import type { StoredObjectRow } from "./entities/stored-object.js";
import { toUploadSession, UploadSessionRow } from "./entities/upload-session.js";
import { SELECT_STORED_OBJECT } from "./stored-object-columns.js";
import { toObjectRecord } from "./stored-object-from-row.js";

/** The hot path's read (complete, every lifecycle step), deleted or not, without the ORM. */
export async function selectStoredObject(orm: MikroORM, tenantId: string, id: string): Promise<StoredObjectRow | undefined> {
  const rows = await withDatabase(orm, (em) => em.getConnection().execute<StoredObjectRow[]>(SELECT_STORED_OBJECT, [tenantId, id]));
  return rows[0];
}

export async function findObjectRecord(orm: MikroORM, tenantId: string, id: string): Promise<ObjectRecord | undefined> {
  const row = await selectStoredObject(orm, tenantId, id);
  return row ? toObjectRecord(row) : undefined;
}

export async function latestUploadSession(orm: MikroORM, tenantId: string, objectId: string): Promise<UploadSession | undefined> {
  const row = await withDatabase(orm, (em) => em.findOne(UploadSessionRow, { tenantId, objectId }, { orderBy: { createdAt: "desc" } }));
  return row ? toUploadSession(row) : undefined;
}
