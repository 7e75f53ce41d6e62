import type { SaxesAttributeNS, SaxesTagNS } from "saxes";
import { failed, type CheckResult, type ScanReason } from "./check-result.js";
import { scanCss } from "./css-references.js";
import { NamespaceScope, ScopedSaxesParser } from "./svg-namespaces.js";
import { classifyUrl } from "./svg-url.js";

const NAME = "svg_safety";

const SVG_NS = "http://www.w3.org/2000/svg";
const XHTML_NS = "http://www.w3.org/1999/xhtml";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
const XML_EVENTS_NS = "http://www.w3.org/2001/xml-events";

/** Elements that run code: SVG/HTML script, and SVG Tiny / XML Events handlers. */
const SCRIPT_ELEMENTS = new Set(["script", "handler", "listener"]);

/** Elements that embed another document or change how this one loads; never needed in an image. */
const FORBIDDEN_ELEMENTS = new Set([
  "iframe", "frame", "frameset", "embed", "object", "applet", "portal", "meta", "base", "link",
]);

/** SMIL elements that can set any attribute, including a link, at run time. */
const ANIMATION_ELEMENTS = new Set(["set", "animate", "animatemotion", "animatetransform", "animatecolor"]);
const ANIMATION_VALUES = ["to", "from", "by", "values"];

/** Attributes (by lowercased local name, any namespace) whose value is a URL to follow or load. */
const LINK_ATTRIBUTES = new Set([
  "href", "src", "srcset", "action", "formaction", "data", "codebase", "classid", "archive",
  "background", "poster", "lowsrc", "dynsrc", "ping", "cite", "longdesc", "usemap", "profile", "manifest",
]);

/** XML declarations may only name encodings we actually decode with (UTF-8). */
const UTF8_ENCODING = /^(?:utf-?8|us-ascii)$/i;

/** Markup inside CDATA: inert in XML, but live HTML if the SVG is ever inlined into a page. */
const MARKUP = /<[a-z!/?]/i;

/** Bounds on the element tree, so the work and memory of a scan follow the file's size. */
export interface SvgStructureLimits {
  /** Deepest nesting of elements, the root being depth 1. */
  maxDepth: number;
  /** Most elements in the document. */
  maxElements: number;
  /**
   * Longest CSS read in one piece (a style element's text, or an attribute value read as CSS), in
   * characters: it is scanned in one synchronous step, which this keeps to a few milliseconds.
   */
  maxCssChars: number;
}

/**
 * Applies the SVG safety rules to the events of a namespace-aware, strict XML parser. The first
 * violation wins and is kept in `failure`; the caller stops feeding text once it is set. Element
 * and attribute names are compared case-insensitively and in any namespace, because browsers
 * and HTML inlining are more lenient than XML about both. Every event costs time linear in its
 * own text (names, attribute values, style text), whatever the depth: see ScopedSaxesParser.
 */
export class SvgInspector {
  failure: CheckResult | undefined;
  private readonly namespaces = new NamespaceScope();
  private readonly parser = new ScopedSaxesParser(this.namespaces);
  private sawRoot = false;
  private depth = 0;
  private elements = 0;
  private styleDepth = 0;
  private styleText = "";

  constructor(private readonly limits: SvgStructureLimits) {
    this.parser.on("error", (error) => this.fail("SVG_PARSE_ERROR", error.message));
    this.parser.on("xmldecl", (decl) => {
      if (decl.encoding !== undefined && !UTF8_ENCODING.test(decl.encoding)) {
        this.fail("SVG_PARSE_ERROR", `unsupported encoding ${decl.encoding}: SVG must be UTF-8`);
      }
    });
    // A DOCTYPE is the only way to declare entities (billion laughs, XXE) or pull an external DTD.
    this.parser.on("doctype", () => this.fail("SVG_DOCTYPE", "DOCTYPE declarations are not allowed"));
    // xml-stylesheet can apply XSLT, which produces script; no other instruction is needed either.
    this.parser.on("processinginstruction", (pi) =>
      this.fail("SVG_PROCESSING_INSTRUCTION", `processing instruction <?${pi.target}?> is not allowed`),
    );
    this.parser.on("opentagstart", (tag) => this.namespaces.start(tag.ns));
    this.parser.on("opentag", (tag) => {
      this.namespaces.enter(tag.ns);
      this.onOpenTag(tag);
    });
    this.parser.on("closetag", (tag) => {
      this.namespaces.leave(tag.ns);
      this.onCloseTag(tag);
    });
    this.parser.on("text", (text) => this.onText(text));
    this.parser.on("cdata", (text) => this.onCdata(text));
  }

  write(text: string): void {
    if (!this.failure) this.parser.write(text);
  }

  close(): void {
    if (!this.failure) this.parser.close();
    if (!this.failure && !this.sawRoot) this.fail("SVG_NOT_SVG", "the document has no root element");
  }

  private onOpenTag(tag: SaxesTagNS): void {
    this.depth++;
    this.elements++;
    if (this.failure || this.exceedsLimits()) return;
    if (!this.sawRoot) {
      this.sawRoot = true;
      if (tag.local !== "svg" || tag.uri !== SVG_NS) {
        this.fail("SVG_NOT_SVG", `the root element is <${tag.name}> in namespace "${tag.uri}", not an SVG <svg>`);
        return;
      }
    }
    this.checkElement(tag);
    for (const attribute of Object.values(tag.attributes)) this.checkAttribute(tag, attribute);
    if (ANIMATION_ELEMENTS.has(tag.local.toLowerCase())) this.checkAnimation(tag);
    if (tag.local.toLowerCase() === "style") this.styleDepth++;
  }

  private onCloseTag(tag: SaxesTagNS): void {
    this.depth--;
    if (this.failure || tag.local.toLowerCase() !== "style") return;
    this.styleDepth--;
    if (this.styleDepth === 0) {
      this.checkCss(this.styleText, "<style>");
      this.styleText = "";
    }
  }

  private onText(text: string): void {
    if (this.styleDepth > 0) this.appendStyle(text);
  }

  private onCdata(text: string): void {
    if (this.failure) return;
    if (MARKUP.test(text)) {
      this.fail("SVG_SCRIPT", "a CDATA section contains markup, which becomes live HTML if the SVG is inlined");
      return;
    }
    if (this.styleDepth > 0) this.appendStyle(text);
  }

  /** Refused as soon as it grows past the bound, so a huge sheet is never held whole either. */
  private appendStyle(text: string): void {
    if (this.failure) return;
    this.styleText += text;
    if (this.styleText.length > this.limits.maxCssChars) this.cssTooLarge("<style>");
  }

  /** Past either bound the file is refused: legitimate logos stay far below both. */
  private exceedsLimits(): boolean {
    if (this.depth > this.limits.maxDepth) {
      this.fail("SVG_TOO_DEEP", `elements are nested more than ${this.limits.maxDepth} deep`);
    } else if (this.elements > this.limits.maxElements) {
      this.fail("SVG_TOO_MANY_ELEMENTS", `the document has more than ${this.limits.maxElements} elements`);
    }
    return this.failure !== undefined;
  }

  private checkElement(tag: SaxesTagNS): void {
    const local = tag.local.toLowerCase();
    if (SCRIPT_ELEMENTS.has(local)) this.fail("SVG_SCRIPT", `<${tag.name}> elements are not allowed`);
    else if (local === "foreignobject") this.fail("SVG_FOREIGN_OBJECT", `<${tag.name}> elements are not allowed`);
    else if (tag.uri === XHTML_NS) this.fail("SVG_FOREIGN_OBJECT", `XHTML element <${tag.name}> is not allowed in an SVG`);
    else if (FORBIDDEN_ELEMENTS.has(local)) this.fail("SVG_FORBIDDEN_ELEMENT", `<${tag.name}> elements are not allowed`);
  }

  private checkAttribute(tag: SaxesTagNS, attribute: SaxesAttributeNS): void {
    if (this.failure || attribute.uri === XMLNS_NS) return; // namespace declarations are not links
    const local = attribute.local.toLowerCase();
    const where = `attribute ${attribute.name} on <${tag.name}>`;
    if (local.startsWith("on") || attribute.uri === XML_EVENTS_NS) {
      this.fail("SVG_EVENT_HANDLER", `event handler ${where}`);
      return;
    }
    const kind = classifyUrl(attribute.value);
    if (LINK_ATTRIBUTES.has(local) || (attribute.uri === XML_NS && local === "base")) {
      this.checkUrl(attribute.value, where);
    } else if (kind === "script") {
      // Not a known link attribute, but a script URL anywhere is a sign of an attack.
      this.fail("SVG_JAVASCRIPT_URL", `script URL in ${where}`);
    }
    // A base64 raster image (only [a-z0-9+/=] after its header) holds no CSS, and may be large.
    if (kind !== "raster" && /[(@:\\]/.test(attribute.value)) this.checkCss(attribute.value, where);
  }

  /** `<set attributeName="href" to="javascript:...">` sets a link that was never in the markup. */
  private checkAnimation(tag: SaxesTagNS): void {
    if (this.failure) return;
    const target = (tag.attributes.attributeName?.value ?? "").trim().toLowerCase().split(":").pop() ?? "";
    if (target.startsWith("on")) {
      this.fail("SVG_EVENT_HANDLER", `<${tag.name}> animates event handler ${target}`);
      return;
    }
    if (!LINK_ATTRIBUTES.has(target) && target !== "base") return;
    for (const name of ANIMATION_VALUES) {
      const value = tag.attributes[name]?.value;
      // `values` is a semicolon-separated list; each entry becomes the link in turn.
      for (const entry of value?.split(";") ?? []) this.checkUrl(entry, `${name} of <${tag.name}> animating ${target}`);
    }
  }

  private checkCss(css: string, where: string): void {
    if (this.failure) return;
    if (css.length > this.limits.maxCssChars) {
      this.cssTooLarge(where);
      return;
    }
    const scan = scanCss(css);
    if (scan.hasScript) this.fail("SVG_SCRIPT", `CSS script construct in ${where}`);
    else if (scan.hasImport) this.fail("SVG_EXTERNAL_REFERENCE", `CSS @import in ${where}`);
    else for (const url of scan.urls) this.checkUrl(url, `url() in ${where}`);
  }

  private checkUrl(url: string, where: string): void {
    if (this.failure) return;
    const kind = classifyUrl(url);
    if (kind === "script") this.fail("SVG_JAVASCRIPT_URL", `script URL in ${where}`);
    else if (kind === "data") this.fail("SVG_DATA_URL", `data: URL other than a base64 raster image in ${where}`);
    else if (kind === "external") this.fail("SVG_EXTERNAL_REFERENCE", `external reference ${truncate(url)} in ${where}`);
  }

  private cssTooLarge(where: string): void {
    this.fail("SVG_CSS_TOO_LARGE", `CSS in ${where} is longer than ${this.limits.maxCssChars} characters`);
  }

  private fail(reason: ScanReason, message: string): void {
    this.failure ??= failed(NAME, reason, message);
  }
}

function truncate(text: string): string {
  const trimmed = text.trim();
  return JSON.stringify(trimmed.length > 80 ? `${trimmed.slice(0, 80)}…` : trimmed);
}
