import type { ByteSource } from "./byte-source.js";
import { failed, finding, passed, type CheckResult } from "./check-result.js";
import type { Disposition } from "./content-policy.js";
import { PdfNameScanner, type Found } from "./pdf-name-scanner.js";
import { DEFAULT_PDF_INFLATION_LIMITS, PdfStreamInflater, type PdfInflationLimits } from "./pdf-streams.js";

const NAME = "pdf_active_content";

/**
 * JavaScript, launch actions and XFA forms refuse for every class; embedded files as the class
 * says. Names are searched in the raw bytes and in what compressed streams inflate to; an object
 * stream the search cannot read entirely refuses the file.
 */
export async function checkPdfActiveContent(
  source: ByteSource,
  embeddedFiles: Disposition,
  limits: PdfInflationLimits = DEFAULT_PDF_INFLATION_LIMITS,
): Promise<CheckResult> {
  const found = new Set<Found>();
  const scanner = new PdfNameScanner(found);
  const streams = new PdfStreamInflater(found, limits);
  for await (const chunk of source.stream()) {
    scanner.push(chunk);
    if (!(await streams.push(chunk))) break;
  }
  scanner.finish();
  const problem = await streams.finish();
  if (found.has("javascript")) return failed(NAME, "PDF_JAVASCRIPT", "the PDF contains JavaScript (/JS or /JavaScript)");
  if (found.has("launch")) return failed(NAME, "PDF_LAUNCH_ACTION", "the PDF contains a launch action (/Launch), which starts a program");
  if (found.has("xfa")) return failed(NAME, "PDF_XFA", "the PDF contains an XFA form (/XFA), which carries its own scripts");
  if (problem) return failed(NAME, problem.reason, problem.message);
  if (found.has("embedded")) return finding(NAME, "PDF_EMBEDDED_FILE", "the PDF contains an attached file (/EmbeddedFile)", embeddedFiles);
  return passed(NAME);
}
