import { csv, exe, pdf, png, svg } from "../fixtures/files/index.js";

/** Uploads of mixed classes and types, valid and hostile, and the status each deserves. */
export const MIXED_UPLOADS = [
  { objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: () => png(16, 16), ends: "READY" },
  { objectClass: "REPORT", contentType: "text/csv", bytes: () => csv([["a", "b"], ["1", "2"]]), ends: "READY" },
  { objectClass: "REPORT", contentType: "application/pdf", bytes: () => pdf(), ends: "READY" },
  { objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: () => exe(), ends: "REJECTED" },
  { objectClass: "COMPANY_LOGO", contentType: "image/svg+xml", bytes: () => svg("<script>x()</script>"), ends: "REJECTED" },
] as const;
