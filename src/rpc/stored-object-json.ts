import { toJson, type JsonValue } from "@bufbuild/protobuf";
import { StoredObjectSchema } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";
import type { StoredObjectView } from "../domain/files/stored-object.js";
import { toStoredObjectMessage } from "./handlers/stored-object-message.js";
import { jsonWriteOptions } from "./json-options.js";

/** A stored object exactly as the JSON API shows it; webhook payloads carry this form. */
export function storedObjectJson(view: StoredObjectView): JsonValue {
  return toJson(StoredObjectSchema, toStoredObjectMessage(view), jsonWriteOptions);
}
