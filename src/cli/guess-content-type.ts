/** Content types by file extension, for the types the object classes accept; --type overrides. */
const BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  csv: "text/csv",
  txt: "text/plain",
  json: "application/json",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  zip: "application/zip",
};

export function guessContentType(filename: string): string | undefined {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? undefined : BY_EXTENSION[filename.slice(dot + 1).toLowerCase()];
}
