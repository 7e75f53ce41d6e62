import type { Actor } from "../../domain/actor.js";
import type { RetentionConfig } from "../../config/retention.js";
import type { StorageConfig } from "../../config/storage.js";
import type { AuditTrail } from "../audit/port.js";
import type { ObjectCatalog, ObjectLifecycle, ObjectStorage } from "./port.js";
import { AppError } from "../../domain/errors.js";
import type { StoredObjectView } from "../../domain/files/stored-object.js";

/** What the file storage use cases need; wired in src/main. */
export interface FileStorageDeps {
  store: ObjectCatalog;
  trail: AuditTrail;
  storage: ObjectStorage;
  lifecycle: ObjectLifecycle;
  storageConfig: StorageConfig;
  retention: RetentionConfig;
  completeWaitTimeoutSeconds: number;
  /** Counters of multipart uploads (src/observability); absent where nothing is measured. */
  meters?: UploadMeters;
  now(): Date;
  newId(): string;
}

/** The settings the file storage use cases read, named as the configuration (src/config) holds them. */
export interface FileStorageSettings {
  storage: StorageConfig;
  retention: RetentionConfig;
  completeWaitTimeoutSeconds: number;
}

/** The use cases' dependencies from the settings and the ports: the real ones in src/main, fakes in the unit tests. */
export function fileStorageDeps(settings: FileStorageSettings, ports: Pick<FileStorageDeps, "store" | "trail" | "storage" | "lifecycle" | "now" | "newId">): FileStorageDeps {
  return { ...ports, storageConfig: settings.storage, retention: settings.retention, completeWaitTimeoutSeconds: settings.completeWaitTimeoutSeconds };
}

/** What the upload use cases count. */
export interface UploadMeters {
  partsSigned(count: number): void;
  /** A client listed the parts of an upload that storage already holds some of: it resumes. */
  uploadResumed(): void;
  /** `by`: the client's AbortUpload, the object's workflow at its deadline, or the sweep. */
  multipartAborted(count: number, by: "client" | "deadline" | "sweep"): void;
}

/** Another tenant's object behaves exactly like one that does not exist. */
export async function findOrFail(deps: FileStorageDeps, actor: Actor, objectId: string): Promise<StoredObjectView> {
  const found = await deps.store.findLive(actor.tenantId, objectId);
  if (!found) throw new AppError("OBJECT_NOT_FOUND", `upload ${objectId} not found`);
  return found;
}
