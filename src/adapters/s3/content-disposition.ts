/**
 * RFC 6266 Content-Disposition: an ASCII fallback `filename` plus the exact UTF-8 name in
 * `filename*` (RFC 5987), so that any name downloads under its own name and none can inject a
 * header parameter.
 */
export function contentDisposition(disposition: "attachment" | "inline", filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
