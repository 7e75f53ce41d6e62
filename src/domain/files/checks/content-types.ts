/**
 * The content types the validation checks know. Anything else is refused before any byte is
 * read: a declared type we cannot verify must never pass as "scanned".
 */
export const CONTENT_TYPES = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  csv: "text/csv",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

export type ContentType = (typeof CONTENT_TYPES)[keyof typeof CONTENT_TYPES];

const CANONICAL: ReadonlySet<string> = new Set(Object.values(CONTENT_TYPES));

/**
 * Aliases accepted for a canonical type. Deliberately short: only `image/jpg`, the non-standard
 * spelling real clients send for JPEG. Unregistered names such as `application/csv` or
 * `text/x-csv` are refused rather than guessed at, and `application/vnd.ms-excel` stays XLS even
 * though some browsers label .csv files with it: the bytes must then really be OLE2.
 */
const ALIASES: ReadonlyMap<string, ContentType> = new Map([["image/jpg", CONTENT_TYPES.jpeg]]);

/**
 * Lowercased, parameters dropped: `Image/PNG; charset=x` is `image/png`. How a declared type is
 * compared with a class's allowed list, by the server and by the browser uploader alike.
 */
export function normalizeContentType(declared: string): string {
  return declared.split(";", 1)[0].trim().toLowerCase();
}

/**
 * The canonical content type for a declared MIME type, or undefined when it is not one we check.
 * Parameters (`; charset=utf-8`) are dropped because the checks judge the bytes themselves (CSV
 * must be UTF-8 whatever charset was declared).
 */
export function canonicalContentType(declared: string): ContentType | undefined {
  const essence = normalizeContentType(declared);
  if (CANONICAL.has(essence)) return essence as ContentType;
  return ALIASES.get(essence);
}
