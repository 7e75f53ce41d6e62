/**
 * What a URL found in an SVG would do if a browser followed it.
 * - local: a same-document fragment (`#id`) or empty;
 * - raster: an inline base64 PNG, JPEG, GIF or WebP image, which cannot carry script;
 * - script: javascript:/vbscript:, which runs code;
 * - data: any other data: URL (text/html, image/svg+xml, ... can carry script);
 * - external: anything else, including relative paths: they resolve against wherever the file is
 *   served from (the bucket), so they leak requests or pull in another object.
 */
export type UrlKind = "local" | "raster" | "script" | "data" | "external";

const SCRIPT_SCHEME = /^(?:javascript|vbscript|livescript):/;
const RASTER_DATA = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=]*$/;

/**
 * Classifies a URL the way a browser would parse it, but more conservatively: XML entities are
 * already decoded by the parser, then every whitespace and control character is removed (the
 * URL parser strips tabs and newlines anywhere and trims controls and spaces, which is how
 * `java&#x09;script:` still runs) and the result is lowercased (schemes are case-insensitive).
 */
export function classifyUrl(raw: string): UrlKind {
  // eslint-disable-next-line no-control-regex
  const url = raw.replace(/[\u0000-\u0020\u007f]/g, "").toLowerCase();
  if (url === "" || url.startsWith("#")) return "local";
  if (SCRIPT_SCHEME.test(url)) return "script";
  if (url.startsWith("data:")) return RASTER_DATA.test(url) ? "raster" : "data";
  return "external";
}
