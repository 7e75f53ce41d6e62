import { AppError } from "../errors.js";
import { normalizeContentType } from "./checks/content-types.js";
import { classRules, type ObjectClassRules } from "./object-classes.js";

export interface UploadDeclaration {
  objectClass: string;
  ownerEntityType: string;
  ownerEntityId: string;
  originalFilename: string;
  contentType: string;
  fileSize: number;
}

const OWNER_TYPE = /^[A-Z][A-Za-z0-9]{0,63}$/;
const OWNER_ID = /^[A-Za-z0-9_-]{1,128}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const MAX_FILENAME_BYTES = 255;

function checkOwner(declaration: UploadDeclaration): void {
  // Owner fields become storage key segments: nothing a client sends may add a path segment.
  if (!OWNER_TYPE.test(declaration.ownerEntityType)) {
    throw new AppError("VALIDATION_FAILED", "ownerEntityType must match ^[A-Z][A-Za-z0-9]{0,63}$", {
      violations: [{ field: "ownerEntityType", description: "must match ^[A-Z][A-Za-z0-9]{0,63}$" }],
    });
  }
  if (!OWNER_ID.test(declaration.ownerEntityId)) {
    throw new AppError("VALIDATION_FAILED", "ownerEntityId must match ^[A-Za-z0-9_-]{1,128}$", {
      violations: [{ field: "ownerEntityId", description: "must match ^[A-Za-z0-9_-]{1,128}$" }],
    });
  }
}

function checkFilename(name: string): void {
  const bytes = new TextEncoder().encode(name).length;
  let problem: string | undefined;
  if (name.trim() === "") problem = "must not be empty";
  else if (bytes > MAX_FILENAME_BYTES) problem = `must be at most ${MAX_FILENAME_BYTES} bytes, got ${bytes}`;
  else if (CONTROL.test(name)) problem = "must not contain control characters";
  if (problem) {
    throw new AppError("INVALID_FILENAME", `originalFilename ${problem}`, {
      violations: [{ field: "originalFilename", description: problem }],
    });
  }
}

/**
 * The initiate checks of the specification: class, type, size (class maximum and the global
 * STORAGE_MAX_FILE_SIZE_BYTES), owner and file name. Returns the class rules that apply.
 */
export function checkUploadDeclaration(declaration: UploadDeclaration, globalMaxBytes: number): ObjectClassRules {
  const rules = classRules(declaration.objectClass);
  checkOwner(declaration);
  checkFilename(declaration.originalFilename);
  const contentType = normalizeContentType(declaration.contentType);
  if (!rules.allowedContentTypes.includes(contentType)) {
    throw new AppError(
      "CONTENT_TYPE_NOT_ALLOWED",
      `content type "${declaration.contentType}" is not allowed for ${rules.name}; allowed: ${rules.allowedContentTypes.join(", ")}`,
      { violations: [{ field: "contentType", description: `must be one of ${rules.allowedContentTypes.join(", ")}` }] },
    );
  }
  const limit = Math.min(rules.maxSizeBytes, globalMaxBytes);
  if (declaration.fileSize > limit) {
    throw new AppError("FILE_TOO_LARGE", `fileSize ${declaration.fileSize} exceeds the limit of ${limit} bytes for ${rules.name}`, {
      violations: [{ field: "fileSize", description: `must be at most ${limit} bytes` }],
      metadata: { maxBytes: String(limit) },
    });
  }
  return rules;
}
