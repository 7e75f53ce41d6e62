import { normalizeContentType } from "../../../../src/domain/files/checks/content-types.js";
import { objectClasses, objectClassNames, type ObjectClassRules } from "../../../../src/domain/files/object-classes.js";
import { UploadError } from "./errors.js";

/** The server's own class table and type comparison (same modules), so the browser refuses what initiate would. */
export { normalizeContentType, objectClasses, objectClassNames, type ObjectClassRules };

export function rulesFor(objectClass: string): ObjectClassRules | undefined {
  return Object.hasOwn(objectClasses, objectClass) ? objectClasses[objectClass as keyof typeof objectClasses] : undefined;
}

/**
 * Checks type and size against the class before any request. Only the declared type can be
 * checked here; the server still checks the real bytes (a renamed executable passes this and is
 * REJECTED by the scan).
 */
export function checkClassRules(objectClass: string, file: { size: number; type: string; name: string }): void {
  const rules = rulesFor(objectClass);
  if (!rules) {
    throw new UploadError("UNKNOWN_OBJECT_CLASS", `unknown object class "${objectClass}"; valid classes: ${objectClassNames.join(", ")}`);
  }
  const type = normalizeContentType(file.type);
  if (!rules.allowedContentTypes.includes(type)) {
    const declared = type === "" ? "an unknown type" : `type ${type}`;
    throw new UploadError(
      "CONTENT_TYPE_NOT_ALLOWED",
      `${file.name} has ${declared}; ${objectClass} allows ${rules.allowedContentTypes.join(", ")}`,
    );
  }
  if (file.size === 0) throw new UploadError("EMPTY_FILE", `${file.name} is empty`);
  if (file.size > rules.maxSizeBytes) {
    throw new UploadError("FILE_TOO_LARGE", `${file.name} has ${file.size} bytes; ${objectClass} allows at most ${rules.maxSizeBytes}`);
  }
}
