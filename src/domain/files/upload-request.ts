import { AppError } from "../errors.js";
import { canonicalContentType, normalizeContentType } from "./checks/content-types.js";
import { extensionContradiction, hasHiddenCharacters, normalizeFilename } from "./filename.js";
import { classRules, type ObjectClassName, type ObjectClassRules } from "./object-classes.js";

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
  else if (hasHiddenCharacters(name)) problem = "must not contain control, bidirectional or invisible formatting characters";
  if (problem) {
    throw new AppError("INVALID_FILENAME", `originalFilename ${problem}`, {
      violations: [{ field: "originalFilename", description: problem }],
    });
  }
}

/** A name whose extension names another format is refused: the saved file would open as that. */
function checkExtension(name: string, contentType: string): void {
  const type = canonicalContentType(contentType);
  const problem = type && extensionContradiction(name, type);
  if (problem) {
    throw new AppError("FILENAME_EXTENSION_MISMATCH", `originalFilename ${problem}`, {
      violations: [{ field: "originalFilename", description: problem }],
    });
  }
}

/** The class's rules with the maximum configuration gives it, if any (STORAGE_CLASS_MAX_FILE_SIZE_BYTES). */
export function withConfiguredMax(rules: ObjectClassRules, classMaxBytes: Partial<Record<ObjectClassName, number>>): ObjectClassRules {
  const configured = classMaxBytes[rules.name];
  return configured === undefined ? rules : { ...rules, maxSizeBytes: configured };
}

/**
 * The initiate checks of the specification: class, type, size (class maximum and the global
 * STORAGE_MAX_FILE_SIZE_BYTES; a class maximum may be configured), owner and file name (checked in NFC, as initiate stores it, and
 * its extension against the declared type). Returns the class rules that apply.
 */
export function checkUploadDeclaration(declaration: UploadDeclaration, globalMaxBytes: number, classMaxBytes: Partial<Record<ObjectClassName, number>> = {}): ObjectClassRules {
  const rules = withConfiguredMax(classRules(declaration.objectClass), classMaxBytes);
  checkOwner(declaration);
  const filename = normalizeFilename(declaration.originalFilename);
  checkFilename(filename);
  const contentType = normalizeContentType(declaration.contentType);
  if (!rules.allowedContentTypes.includes(contentType)) {
    throw new AppError(
      "CONTENT_TYPE_NOT_ALLOWED",
      `content type "${declaration.contentType}" is not allowed for ${rules.name}; allowed: ${rules.allowedContentTypes.join(", ")}`,
      { violations: [{ field: "contentType", description: `must be one of ${rules.allowedContentTypes.join(", ")}` }] },
    );
  }
  checkExtension(filename, contentType);
  const limit = Math.min(rules.maxSizeBytes, globalMaxBytes);
  if (declaration.fileSize > limit) {
    throw new AppError("FILE_TOO_LARGE", `fileSize ${declaration.fileSize} exceeds the limit of ${limit} bytes for ${rules.name}`, {
      violations: [{ field: "fileSize", description: `must be at most ${limit} bytes` }],
      metadata: { maxBytes: String(limit) },
    });
  }
  return rules;
}
