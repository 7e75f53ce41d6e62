/** What a class does with a finding: refuse the file, or keep it and report the finding. */
export type Disposition = "reject" | "flag";

/**
 * Per object class, the findings that are a matter of use rather than of format. Everything else
 * a check finds (JavaScript or launch actions in a PDF, macros, external links, polyglots, active
 * markup in an image) refuses the file for every class and is not configurable.
 */
export interface ContentPolicy {
  /** CSV cells a spreadsheet would evaluate: a leading `=`, `+`, `-` or `@` (signed numbers excepted). */
  csvFormulaCells: Disposition;
  /** Files attached inside a PDF (`/EmbeddedFile`): opened by the viewer at the user's request. */
  pdfEmbeddedFiles: Disposition;
}

/** What a scan without a class applies: every finding refuses. */
export const STRICT_CONTENT_POLICY: ContentPolicy = { csvFormulaCells: "reject", pdfEmbeddedFiles: "reject" };
