import { toJson } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { ObjectClass, ObjectStatus, StoredObjectSchema, type StoredObject } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import { jsonWriteOptions } from "../rpc/json-options.js";
import { formatBytes } from "./progress.js";

export const statusName = (status: ObjectStatus) => ObjectStatus[status] ?? String(status);
export const classNameOf = (objectClass: ObjectClass) => ObjectClass[objectClass] ?? String(objectClass);
export const isFinal = (status: ObjectStatus) => status === ObjectStatus.READY || status === ObjectStatus.REJECTED;

const time = (ts: Timestamp | undefined) => (ts ? timestampDate(ts).toISOString() : "-");

/** The object as the JSON API shows it (lowerCamelCase, enum names, int64 as strings). */
export function objectJson(object: StoredObject) {
  return toJson(StoredObjectSchema, object, jsonWriteOptions);
}

export function describeObject(object: StoredObject): string[] {
  const lines: [string, string][] = [
    ["id", object.id],
    ["status", statusName(object.status)],
    ["class", classNameOf(object.objectClass)],
    ["owner", `${object.ownerEntityType}/${object.ownerEntityId}`],
    ["file", `${object.originalFilename}  ${object.contentType}  ${formatBytes(Number(object.fileSize))}`],
    ["created", time(object.createdAt)],
  ];
  if (object.checksum) lines.push(["md5", object.checksum]);
  if (object.legalHold) lines.push(["legal hold", object.legalHold.reason]);
  if (object.retentionExpiresAt) lines.push(["expires", time(object.retentionExpiresAt)]);
  for (const check of object.scanResult?.checks ?? []) {
    const outcome = check.passed ? "passed" : `FAILED ${check.reason}${check.message ? `: ${check.message}` : ""}`;
    lines.push([`check`, `${check.name} ${outcome}`]);
  }
  return lines.map(([key, value]) => `${key.padEnd(11)}${value}`);
}

export function objectTable(objects: StoredObject[]): string[] {
  const rows = objects.map((o) => [o.id, statusName(o.status), classNameOf(o.objectClass), formatBytes(Number(o.fileSize)), time(o.createdAt), o.originalFilename]);
  const header = ["ID", "STATUS", "CLASS", "SIZE", "CREATED", "FILENAME"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join("  "));
}
