import { AppError } from "../errors.js";

export type ObjectClassName =
  | "USER_PROFILE_PHOTO"
  | "COMPANY_LOGO"
  | "CUSTOMER_SIGNATURE"
  | "KYC_IDENTITY_DOCUMENT"
  | "KYC_SUPPORTING_DOCUMENT"
  | "LOAN_DOCUMENT"
  | "IMPORT_FILE"
  | "STATEMENT"
  | "REPORT"
  | "GENERAL_DOCUMENT"
  | "CUSTOMER_PHOTO";

export type RetentionPolicyName =
  | "PERMANENT"
  | "COMPLIANCE_ARCHIVE"
  | "SUPERSEDED_30D"
  | "TEMP_UPLOAD_24H"
  | "FAILED_UPLOAD_7D"
  | "IMPORT_ARTIFACT_90D"
  | "LEGAL_HOLD";

export const JPEG = "image/jpeg";
export const PNG = "image/png";
export const WEBP = "image/webp";
export const SVG = "image/svg+xml";
export const PDF = "application/pdf";
export const CSV = "text/csv";
export const XLS = "application/vnd.ms-excel";
export const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export interface ObjectClassRules {
  name: ObjectClassName;
  allowedContentTypes: readonly string[];
  maxSizeBytes: number;
  /** The policy a READY file of this class keeps. */
  retention: RetentionPolicyName;
  /** Photos and logos: a new READY upload supersedes the owner's current one. */
  replaceable: boolean;
}

const MB = 1024 * 1024;
const IMAGES = [JPEG, PNG, WEBP];

function rules(
  name: ObjectClassName,
  allowedContentTypes: string[],
  maxMb: number,
  retention: RetentionPolicyName,
  replaceable = false,
): ObjectClassRules {
  return { name, allowedContentTypes, maxSizeBytes: maxMb * MB, retention, replaceable };
}

/** The class table of the specification, with docs/decisions.md's CUSTOMER_PHOTO and STATEMENT. */
export const objectClasses: Readonly<Record<ObjectClassName, ObjectClassRules>> = {
  USER_PROFILE_PHOTO: rules("USER_PROFILE_PHOTO", IMAGES, 5, "PERMANENT", true),
  COMPANY_LOGO: rules("COMPANY_LOGO", [...IMAGES, SVG], 5, "PERMANENT", true),
  CUSTOMER_SIGNATURE: rules("CUSTOMER_SIGNATURE", IMAGES, 2, "PERMANENT"),
  KYC_IDENTITY_DOCUMENT: rules("KYC_IDENTITY_DOCUMENT", [JPEG, PNG, PDF], 10, "COMPLIANCE_ARCHIVE"),
  KYC_SUPPORTING_DOCUMENT: rules("KYC_SUPPORTING_DOCUMENT", [JPEG, PNG, PDF], 10, "COMPLIANCE_ARCHIVE"),
  LOAN_DOCUMENT: rules("LOAN_DOCUMENT", [JPEG, PNG, PDF], 20, "COMPLIANCE_ARCHIVE"),
  IMPORT_FILE: rules("IMPORT_FILE", [CSV, XLS, XLSX], 50, "IMPORT_ARTIFACT_90D"),
  STATEMENT: rules("STATEMENT", [PDF, CSV], 20, "COMPLIANCE_ARCHIVE"),
  REPORT: rules("REPORT", [PDF, CSV], 20, "COMPLIANCE_ARCHIVE"),
  GENERAL_DOCUMENT: rules("GENERAL_DOCUMENT", [JPEG, PNG, PDF], 20, "PERMANENT"),
  CUSTOMER_PHOTO: rules("CUSTOMER_PHOTO", IMAGES, 5, "PERMANENT", true),
};

export const objectClassNames = Object.keys(objectClasses) as ObjectClassName[];

export function classRules(name: string): ObjectClassRules {
  const found = (objectClasses as Record<string, ObjectClassRules | undefined>)[name];
  if (!found || !Object.hasOwn(objectClasses, name)) {
    throw new AppError("UNKNOWN_OBJECT_CLASS", `unknown object class "${name}"; valid classes: ${objectClassNames.join(", ")}`, {
      violations: [{ field: "objectClass", description: `must be one of ${objectClassNames.join(", ")}` }],
    });
  }
  return found;
}
