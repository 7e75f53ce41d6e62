import { AppError } from "../errors.js";
import { STRICT_CONTENT_POLICY, type ContentPolicy } from "./checks/content-policy.js";

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
  /** Which content findings refuse a file of this class and which are only reported. */
  contentPolicy: ContentPolicy;
}

const MB = 1024 * 1024;
const IMAGES = [JPEG, PNG, WEBP];

function rules(
  name: ObjectClassName,
  allowedContentTypes: string[],
  maxMb: number,
  retention: RetentionPolicyName,
  replaceable = false,
  contentPolicy = STRICT_CONTENT_POLICY,
): ObjectClassRules {
  return { name, allowedContentTypes, maxSizeBytes: maxMb * MB, retention, replaceable, contentPolicy };
}

/**
 * Import files are read by the importer, which takes every cell as a value and never evaluates
 * it; phone numbers (`+44 20 ...`), handles (`@name`) and free text (`- see note`) start with a
 * formula character, so refusing would refuse ordinary imports. The finding is reported (check
 * csv_formula_cells) for whoever later exports the data to a spreadsheet.
 */
const IMPORT_POLICY: ContentPolicy = { ...STRICT_CONTENT_POLICY, csvFormulaCells: "flag" };

/**
 * Statements and reports are downloaded and opened in a spreadsheet by people other than the
 * uploader, the victims CSV injection aims at: formula cells refuse. A report may carry its
 * underlying data as a PDF attachment, so embedded files are reported there, refused elsewhere.
 */
const REPORT_POLICY: ContentPolicy = { ...STRICT_CONTENT_POLICY, pdfEmbeddedFiles: "flag" };

/**
 * The class table of the specification, with docs/decisions.md's CUSTOMER_PHOTO and STATEMENT.
 * Content findings refuse by default (STRICT_CONTENT_POLICY); PDF JavaScript and launch actions,
 * macros, external links and active image content refuse for every class whatever the policy.
 */
export const objectClasses: Readonly<Record<ObjectClassName, ObjectClassRules>> = {
  USER_PROFILE_PHOTO: rules("USER_PROFILE_PHOTO", IMAGES, 5, "PERMANENT", true),
  COMPANY_LOGO: rules("COMPANY_LOGO", [...IMAGES, SVG], 5, "PERMANENT", true),
  CUSTOMER_SIGNATURE: rules("CUSTOMER_SIGNATURE", IMAGES, 2, "PERMANENT"),
  KYC_IDENTITY_DOCUMENT: rules("KYC_IDENTITY_DOCUMENT", [JPEG, PNG, PDF], 10, "COMPLIANCE_ARCHIVE"),
  KYC_SUPPORTING_DOCUMENT: rules("KYC_SUPPORTING_DOCUMENT", [JPEG, PNG, PDF], 10, "COMPLIANCE_ARCHIVE"),
  LOAN_DOCUMENT: rules("LOAN_DOCUMENT", [JPEG, PNG, PDF], 20, "COMPLIANCE_ARCHIVE"),
  IMPORT_FILE: rules("IMPORT_FILE", [CSV, XLS, XLSX], 50, "IMPORT_ARTIFACT_90D", false, IMPORT_POLICY),
  STATEMENT: rules("STATEMENT", [PDF, CSV], 20, "COMPLIANCE_ARCHIVE"),
  REPORT: rules("REPORT", [PDF, CSV], 20, "COMPLIANCE_ARCHIVE", false, REPORT_POLICY),
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
