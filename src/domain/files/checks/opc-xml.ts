import { SaxesParser } from "saxes";

export type OfficeReason = "OFFICE_CORRUPT" | "OFFICE_MACROS" | "OFFICE_EXTERNAL_LINKS" | "OFFICE_EMBEDDED_OBJECT";

export interface OfficeProblem {
  reason: OfficeReason;
  message: string;
}

type Forbidden = Exclude<OfficeReason, "OFFICE_CORRUPT">;

/** Content types (lowercase substrings) of parts that carry code, links out, or embedded programs. */
const FORBIDDEN_CONTENT_TYPES: [string, Forbidden][] = [
  ["vnd.ms-office.vbaproject", "OFFICE_MACROS"],
  ["macroenabled", "OFFICE_MACROS"],
  ["macrosheet", "OFFICE_MACROS"],
  ["dialogsheet", "OFFICE_MACROS"],
  ["externallink", "OFFICE_EXTERNAL_LINKS"],
  ["vnd.ms-office.activex", "OFFICE_EMBEDDED_OBJECT"],
  ["oleobject", "OFFICE_EMBEDDED_OBJECT"],
];

/**
 * Relationship types (the last segment of the URI, lowercase, so the transitional and strict
 * namespaces both match) that point at the same.
 */
const FORBIDDEN_RELATIONSHIPS: ReadonlyMap<string, Forbidden> = new Map([
  ["vbaproject", "OFFICE_MACROS"],
  ["xlmacrosheet", "OFFICE_MACROS"],
  ["xlintlmacrosheet", "OFFICE_MACROS"],
  ["dialogsheet", "OFFICE_MACROS"],
  ["externallink", "OFFICE_EXTERNAL_LINKS"],
  ["externallinkpath", "OFFICE_EXTERNAL_LINKS"],
  ["oleobject", "OFFICE_EMBEDDED_OBJECT"],
  ["activexcontrol", "OFFICE_EMBEDDED_OBJECT"],
  ["activexcontrolbinary", "OFFICE_EMBEDDED_OBJECT"],
  ["control", "OFFICE_EMBEDDED_OBJECT"],
  ["package", "OFFICE_EMBEDDED_OBJECT"],
]);

/** The one relationship that may point outside the package: a cell's hyperlink, opened on a click. */
const EXTERNAL_ALLOWED = "hyperlink";

/**
 * XML read from one package: content types are a few KB, relationships a few MB at most (one per
 * hyperlink). Parsing costs far more per byte than inflating, so it has its own bounds.
 */
export const MAX_XML_PART_BYTES = 16 * 1024 * 1024;
export const MAX_XML_TOTAL_BYTES = 64 * 1024 * 1024;

/** What is left of the package's XML allowance, shared by its readers. */
export interface XmlAllowance {
  remaining: number;
}

/** OOXML parts are UTF-8 or UTF-16 (ECMA-376 Part 2, 8.1.4). */
const ENCODINGS = new Set(["utf-8", "utf8", "utf-16", "utf-16le", "utf-16be"]);

/**
 * Reads `[Content_Types].xml` or a relationships part as Office does: with an XML parser, so a
 * character reference (`&#109;acrosheet`), a UTF-16 encoding or a namespace prefix changes nothing
 * about what is seen. Bytes are pushed as they are inflated; nothing is kept but the parser state.
 * A part that is not well-formed XML, declares a DTD or another encoding, is OFFICE_CORRUPT.
 */
export class OpcXmlReader {
  private readonly parser = new SaxesParser();
  private decoder: TextDecoder | undefined;
  private head: Uint8Array = new Uint8Array(0);
  private problem: OfficeProblem | undefined;
  private read = 0;

  constructor(
    private readonly part: string,
    private readonly kind: "content-types" | "relationships",
    private readonly allowance: XmlAllowance = { remaining: MAX_XML_TOTAL_BYTES },
  ) {
    this.parser.on("error", (error) => this.fail("OFFICE_CORRUPT", `${part} is not well-formed XML: ${error.message}`));
    this.parser.on("doctype", () => this.fail("OFFICE_CORRUPT", `${part} declares a DTD`));
    this.parser.on("xmldecl", (decl) => {
      if (decl.encoding !== undefined && !ENCODINGS.has(decl.encoding.toLowerCase())) this.fail("OFFICE_CORRUPT", `${part} is encoded in ${decl.encoding}`);
    });
    this.parser.on("opentag", (tag) => this.element(localName(tag.name), tag.attributes as Record<string, string>));
  }

  push(bytes: Uint8Array): void {
    if (this.problem) return;
    this.read += bytes.length;
    this.allowance.remaining -= bytes.length;
    if (this.read > MAX_XML_PART_BYTES || this.allowance.remaining < 0) {
      this.fail("OFFICE_CORRUPT", `${this.part}: content types and relationships larger than ${MAX_XML_PART_BYTES} bytes a part or ${MAX_XML_TOTAL_BYTES} together`);
      return;
    }
    if (!this.decoder) {
      this.head = concat(this.head, bytes);
      if (this.head.length < 2) return;
      this.decoder = new TextDecoder(encodingOf(this.head), { fatal: true });
      bytes = this.head;
    }
    this.guard(() => this.parser.write(this.decoder!.decode(bytes, { stream: true })));
  }

  end(): OfficeProblem | undefined {
    if (!this.problem) {
      this.guard(() => {
        this.parser.write(this.decoder ? this.decoder.decode() : new TextDecoder("utf-8", { fatal: true }).decode(this.head));
        this.parser.close();
      });
    }
    return this.problem;
  }

  private element(name: string, attributes: Record<string, string>): void {
    const attribute = (wanted: string) => Object.entries(attributes).find(([key]) => localName(key) === wanted)?.[1];
    if (this.kind === "content-types") {
      const type = attribute("ContentType")?.toLowerCase();
      const forbidden = type === undefined ? undefined : FORBIDDEN_CONTENT_TYPES.find(([needle]) => type.includes(needle));
      if (forbidden) this.fail(forbidden[1], `[Content_Types].xml declares a ${forbidden[0]} part`);
      return;
    }
    if (name !== "Relationship") return;
    const type = (attribute("Type") ?? "").toLowerCase();
    const kind = type.slice(type.lastIndexOf("/") + 1);
    const forbidden = FORBIDDEN_RELATIONSHIPS.get(kind);
    if (forbidden) this.fail(forbidden, `${this.part} relates a ${kind} part`);
    else if (attribute("TargetMode")?.toLowerCase() === "external" && kind !== EXTERNAL_ALLOWED) {
      this.fail("OFFICE_EXTERNAL_LINKS", `${this.part} points a ${kind || "typeless"} relationship outside the package`);
    }
  }

  private guard(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.fail("OFFICE_CORRUPT", `${this.part} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private fail(reason: OfficeReason, message: string): void {
    this.problem ??= { reason, message };
  }
}

function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

/** From the byte order mark, or the first `<` in UTF-16 without one (XML 1.0, appendix F). */
function encodingOf(head: Uint8Array): string {
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  if (head[0] === 0x3c && head[1] === 0x00) return "utf-16le";
  if (head[0] === 0x00 && head[1] === 0x3c) return "utf-16be";
  return "utf-8";
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
