import { CONTENT_TYPES, type ContentType } from "./checks/content-types.js";

/**
 * Characters that change how a name is displayed without being visible: the bidirectional
 * embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069; U+202E turns
 * "invoice‮fdp.exe" into what reads as "invoice.exe.pdf"), the marks (U+200E, U+200F, U+061C),
 * zero-width characters (U+200B-U+200D, U+2060-U+2064, U+FEFF, U+180E), the soft hyphen, line and
 * paragraph separators, and every C0/C1 control character.
 */
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");

/** The extensions each checked type is saved under; the first is the one a download gets. */
const TYPE_EXTENSIONS: Record<ContentType, readonly string[]> = {
  [CONTENT_TYPES.jpeg]: ["jpg", "jpeg", "jpe", "jfif"],
  [CONTENT_TYPES.png]: ["png"],
  [CONTENT_TYPES.webp]: ["webp"],
  [CONTENT_TYPES.svg]: ["svg"],
  [CONTENT_TYPES.pdf]: ["pdf"],
  [CONTENT_TYPES.csv]: ["csv"],
  [CONTENT_TYPES.xls]: ["xls"],
  [CONTENT_TYPES.xlsx]: ["xlsx"],
};

/**
 * Extensions that name some other format: executables, scripts, markup a browser runs, archives
 * and office formats we do not check. A name ending in one of these (or in another checked type's
 * extension) contradicts its declared type. Other endings ("notes.txt", "scan 12.03.2024") name no
 * format we could contradict and are accepted; the download then gets the type's own extension.
 */
const OTHER_FORMATS: ReadonlySet<string> = new Set([
  "exe", "com", "bat", "cmd", "scr", "pif", "msi", "msp", "dll", "cpl", "sys", "lnk", "url", "reg", "hta", "inf",
  "js", "mjs", "cjs", "jse", "vbs", "vbe", "wsf", "wsh", "ps1", "psm1", "sh", "bash", "zsh", "csh", "py", "pl", "rb", "php", "jar", "class",
  "app", "apk", "dmg", "pkg", "deb", "rpm", "iso", "img",
  "html", "htm", "xhtml", "shtml", "mht", "mhtml", "xml", "xsl", "swf",
  "zip", "rar", "7z", "gz", "tgz", "bz2", "xz", "tar", "cab",
  "doc", "docx", "docm", "dot", "dotm", "xlsm", "xlsb", "xltm", "xlam", "ppt", "pptx", "pptm", "odt", "ods", "odp", "rtf",
  "gif", "bmp", "tif", "tiff", "ico", "heic", "avif",
]);

const ALL_TYPE_EXTENSIONS: ReadonlySet<string> = new Set(Object.values(TYPE_EXTENSIONS).flat());

/** A file name as stored: Unicode NFC, so one name has one spelling (and one byte length). */
export function normalizeFilename(name: string): string {
  return name.normalize("NFC");
}

/** Whether the name holds a control, bidirectional or invisible formatting character. */
export function hasHiddenCharacters(name: string): boolean {
  return HIDDEN.test(name);
}

/** The last extension, lowercased, or undefined ("archive", ".profile", "name."). */
export function extensionOf(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return name.slice(dot + 1).trim().toLowerCase();
}

/**
 * Why the name's extension contradicts the declared type ("invoice.pdf.exe" as application/pdf,
 * "photo.svg" as image/png), or undefined when it does not.
 */
export function extensionContradiction(name: string, type: ContentType): string | undefined {
  const extension = extensionOf(name);
  if (extension === undefined || TYPE_EXTENSIONS[type].includes(extension)) return undefined;
  if (!ALL_TYPE_EXTENSIONS.has(extension) && !OTHER_FORMATS.has(extension)) return undefined;
  return `extension ".${extension}" does not match the content type ${type} (expected .${TYPE_EXTENSIONS[type].join(", .")})`;
}

/**
 * The name a download is saved under: hidden characters removed (rows stored before they were
 * refused may hold them) and, unless the name already ends in one, the extension of the type the
 * scan verified appended, so the saved file opens as what it was checked to be.
 */
export function downloadFilename(name: string, type: ContentType | undefined): string {
  const visible = name.replace(HIDDEN_ALL, "").trim() || "download";
  if (!type) return visible;
  const extensions = TYPE_EXTENSIONS[type];
  const extension = extensionOf(visible);
  if (extension !== undefined && extensions.includes(extension)) return visible;
  return `${visible.replace(/(?<!\.)\.+$/, "")}.${extensions[0]}`;
}
