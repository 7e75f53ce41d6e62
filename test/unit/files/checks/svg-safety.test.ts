import { describe, expect, it } from "vitest";
import { scanCss } from "../../../../src/domain/files/checks/css-references.js";
import { checkSvgSafety, DEFAULT_SVG_LIMITS } from "../../../../src/domain/files/checks/svg-safety.js";
import { classifyUrl } from "../../../../src/domain/files/checks/svg-url.js";
import { bufferSource, concat, svg, text } from "../../../fixtures/files/index.js";

const PNG_DATA = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==";

const safeDocuments: [string, Uint8Array][] = [
  ["shapes and text", svg('<g fill="red"><circle cx="5" cy="5" r="4"/><text x="1" y="9">Logo &amp; Co — ✓</text></g>')],
  ["gradient referenced by url(#id)", svg('<defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><rect fill="url(#g)" width="5" height="5"/>')],
  ["use with a local fragment", svg('<defs><path id="p" d="M0 0h5"/></defs><use href="#p"/><use xlink:href="#p"/>')],
  ["inline base64 PNG image", svg(`<image width="1" height="1" href="${PNG_DATA}"/>`)],
  ["base64 image with whitespace and upper-case scheme", svg('<image xlink:href="DATA:image/JPEG;base64,\n  /9j/4AAQ\n  SkZJRg=="/>')],
  ["style element with local references", svg("<style>.a { fill: url(#g); stroke: #000 } @media (min-width: 1px) { .a { opacity: .5 } }</style>")],
  ["style element in CDATA", svg("<style><![CDATA[ .a > .b { fill: red } ]]></style>")],
  ["local fragment animation", svg('<a href="#x"><set attributeName="href" to="#y"/><animate attributeName="href" values="#a;#b" dur="1s"/></a>')],
  ["animation of a non-link attribute", svg('<rect><animate attributeName="fill" values="red;blue" dur="2s" repeatCount="indefinite"/></rect>')],
  ["editor metadata namespaces", svg(
    '<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description about="x"/></rdf:RDF></metadata>' +
      '<sodipodi:namedview xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" pagecolor="#ffffff"/>',
  )],
  ["comments, XML declaration and a BOM", concat([0xef, 0xbb, 0xbf], svg("<!-- Generator: Example 1.0 --><rect/>", { prolog: '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n' }))],
  ["attribute words that merely start with o", svg('<path d="M0 0" opacity=".5" offset="1" order="2" overflow="visible"/>')],
  ["title and desc text mentioning javascript", svg("<title>javascript: the good parts</title><desc>onload handlers</desc>")],
];

describe("checkSvgSafety: safe documents", () => {
  it.each(safeDocuments)("accepts %s", async (_name, bytes) => {
    await expect(checkSvgSafety(bufferSource(bytes))).resolves.toEqual({ name: "svg_safety", passed: true });
  });

  it("parses documents split into 1-byte chunks, including multi-byte characters", async () => {
    const bytes = svg("<text>Zürich 東京 😀</text>");
    await expect(checkSvgSafety(bufferSource(bytes, { chunkSize: 1 }))).resolves.toMatchObject({ passed: true });
  });
});

describe("checkSvgSafety: limits and streaming", () => {
  it("detects a script split across chunk boundaries", async () => {
    const bytes = svg('<a href="javascript:alert(1)"/>');
    await expect(checkSvgSafety(bufferSource(bytes, { chunkSize: 3 }))).resolves.toMatchObject({ reason: "SVG_JAVASCRIPT_URL" });
  });

  it("stops reading at the first violation", async () => {
    const bytes = svg(`<script>alert(1)</script>${"<rect/>".repeat(100_000)}`);
    const source = bufferSource(bytes, { chunkSize: 1024 });
    await expect(checkSvgSafety(source)).resolves.toMatchObject({ reason: "SVG_SCRIPT" });
    expect(source.bytesServed).toBe(1024);
  });

  it("refuses a file over the size limit without reading it", async () => {
    const source = bufferSource(svg("<rect/>".repeat(100)));
    await expect(checkSvgSafety(source, { ...DEFAULT_SVG_LIMITS, maxBytes: 100 })).resolves.toMatchObject({ reason: "SVG_TOO_LARGE" });
    expect(source.bytesServed).toBe(0);
  });

  it("stops a stream that delivers more than the limit, whatever size was reported", async () => {
    const bytes = svg("<rect/>".repeat(1000));
    const inner = bufferSource(bytes, { chunkSize: 100 });
    const lying = { size: 10, read: inner.read, stream: () => inner.stream() };
    await expect(checkSvgSafety(lying, { ...DEFAULT_SVG_LIMITS, maxBytes: 500 })).resolves.toMatchObject({ reason: "SVG_TOO_LARGE" });
  });

  it("rejects a document with no root element", async () => {
    await expect(checkSvgSafety(bufferSource(text("<!-- nothing -->")))).resolves.toMatchObject({ reason: "SVG_PARSE_ERROR" });
  });
});

describe("classifyUrl", () => {
  it.each([
    ["", "local"],
    ["#id", "local"],
    ["  #id ", "local"],
    [PNG_DATA, "raster"],
    ["data:image/gif;base64,R0lGOD==", "raster"],
    ["data:image/webp;base64,UklGR==", "raster"],
    ["javascript:alert(1)", "script"],
    ["\u0001 JAVA\tSCRIPT\n:x", "script"],
    ["vbscript:x", "script"],
    ["data:image/svg+xml;base64,PHN2Zz4=", "data"],
    ["data:text/html,<script>", "data"],
    ["data:image/png,raw", "data"],
    ["https://example.com/x", "external"],
    ["//example.com/x", "external"],
    ["file:///etc/passwd", "external"],
    ["other.svg#id", "external"],
    ["/absolute/path", "external"],
  ] as const)("%j is %s", (url, kind) => {
    expect(classifyUrl(url)).toBe(kind);
  });
});

describe("scanCss", () => {
  it("finds url() targets in every quoting style and image-set strings", () => {
    expect(scanCss(`a{b:url(x.png);c:url("y.png");d:url( 'z.png' );e:image-set("w.png" 1x)}`).urls).toEqual([
      "x.png",
      "y.png",
      "z.png",
      "w.png",
    ]);
  });

  it("sees through escapes and comments", () => {
    expect(scanCss("a{b:\\75 \\72 \\6c(evil)}").urls).toEqual(["evil"]);
    expect(scanCss("\\@import 'x.css';").hasImport).toBe(true);
    expect(scanCss("a{b:u/**/rl(x)}").urls).toEqual(["x"]);
  });

  it("flags legacy script constructs", () => {
    expect(scanCss("a{width:expression(alert(1))}").hasScript).toBe(true);
    expect(scanCss("a{-moz-binding:url(x.xml#b)}").hasScript).toBe(true);
    expect(scanCss("a{fill:red}")).toEqual({ urls: [], hasImport: false, hasScript: false });
  });
});
