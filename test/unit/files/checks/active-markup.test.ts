import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ActiveMarkupScanner, findActiveMarkup } from "../../../../src/domain/files/checks/active-markup.js";
import { latin1, text, XMP_PACKET } from "../../../fixtures/files/index.js";

const find = (markup: string) => findActiveMarkup(text(markup));

/** Pseudo-random bytes, the same on every run (a linear congruential generator). */
function noise(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0, state = seed; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

describe("active markup: found as a browser would parse it", () => {
  it.each([
    ["an event handler on an image", "<img src=x onerror=alert(1)>", "an onerror event handler"],
    ["slashes between attributes", "<img/src=x/onerror=alert(1)>", "an onerror event handler"],
    ["upper and mixed case", "<IMG SRC=x OnError=alert(1)>", "an onerror event handler"],
    ["a handler without a value", "<details open ontoggle>", "an ontoggle event handler"],
    ["a handler after a newline and a form feed", "<div\n\fonmouseover='x()'>", "an onmouseover event handler"],
    ["an svg element", "<svg onload>", "a <svg> element"],
    ["a script element", "<script>alert(1)</script>", "a <script> element"],
    ["a namespaced script element", '<html:script xmlns:html="http://www.w3.org/1999/xhtml">', "a <script> element"],
    ["an iframe", '<iframe src="https://evil.example">', "a <iframe> element"],
    ["a javascript: URL in an attribute", '<a href="javascript:alert(1)">x</a>', "a javascript: URL"],
    ["a javascript: URL with a leading character reference", "<a href=&#x6A;avascript:alert(1)>", "a javascript: URL"],
    ["a javascript: URL as zero-padded decimal references", "<a href='&#0000106&#0000097vascript:alert(1)'>", "a javascript: URL"],
    ["a javascript: URL split by a tab reference", '<a href="java&Tab;script:alert(1)">', "a javascript: URL"],
    ["a javascript: URL in text, written with references", "&#x6A;avascript&colon;alert(1)", "a javascript: URL"],
    ["a javascript: URL in text, split by a newline", "java\nscript:alert(1)", "a javascript: URL"],
    ["a vbscript: URL", "VBScript:MsgBox(1)", "a vbscript: URL"],
    ["a data: URL holding HTML", '<object data="data:text/html,<b>x</b>">', "a <object> element"],
    ["a data: URL on a harmless element", '<a href=" data:text/html;base64,PHNjcmlwdD4=">x</a>', "a data: URL in an attribute"],
    ["a PHP block", "<?php system($_GET[0]); ?>", "a PHP block"],
    ["a PHP echo block", "<?=`id`?>", "a PHP echo block"],
    ["an HTML doctype", "<!DOCTYPE   html>", "an HTML doctype"],
    ["a script inside a CDATA section", "<![CDATA[<script>x</script>]]>", "a <script> element"],
    ["a tag after a stray <", "<<svg/onload=alert(1)>", "a <svg> element"],
  ])("finds %s", (_label, markup, finding) => {
    expect(find(markup)).toBe(finding);
  });

  it("answers the same however the input is split (property)", () => {
    const pieces = ["<", ">", "/", "=", " ", "\t", '"', "'", "&", "#", "x", "6a", ";", "svg", "img", "onload", "on", "script", "javascript:", "java", "data:", "?", "php", "!doctype html", "a", "\u0001"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.array(fc.nat(50), { maxLength: 8 }), (parts, cuts) => {
        const bytes = text(parts.join(""));
        const scanner = new ActiveMarkupScanner();
        let at = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          scanner.push(bytes.subarray(at, Math.max(at, cut)));
          at = Math.max(at, cut);
        }
        scanner.push(bytes.subarray(at));
        expect(scanner.finish()).toBe(findActiveMarkup(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it("finds the same markup however the bytes are split", () => {
    const bytes = text("xx <IMG\tSRC=x ONERROR=&#97;lert(1)> yy");
    const scanner = new ActiveMarkupScanner();
    for (const byte of bytes) scanner.push(Uint8Array.of(byte));
    expect(scanner.finish()).toBe("an onerror event handler");
  });
});

describe("active markup: inert text and metadata pass", () => {
  it.each([
    ["an XMP packet", XMP_PACKET],
    ["prose with angle brackets", "a < b and c > d; x<y; <3; 5 > 4"],
    ["escaped markup (text, not a tag)", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    ["harmless formatting", '<p class="note"><b>bold</b> <i>italic</i> <a href="https://example.com/a?b=1&amp;c=2">link</a></p>'],
    ["a raster data: image", '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">'],
    ["an XML declaration", '<?xml version="1.0" encoding="UTF-8"?><root/>'],
    ["a tag that never closes (a browser drops it at the end)", "<img src=x onerror=alert(1)"],
    ["a tag with a control byte in it", "<svg\x01onload=alert(1)>"],
    ["an attribute that only starts with on", '<x:item rdf:onion="1" xmp:online="no">'],
  ])("accepts %s", (_label, markup) => {
    expect(find(markup)).toBeUndefined();
  });

  it("finds nothing in 8 MB of random bytes (compressed image data looks like this)", () => {
    for (let seed = 1; seed <= 8; seed++) expect(findActiveMarkup(noise(1024 * 1024, seed))).toBeUndefined();
  });

  it("accepts binary EXIF with ASCII camera names", () => {
    expect(findActiveMarkup(latin1("Exif\0\0II*\0\x08\0\0\0Canon\0EOS R5\0<\x00\x01onload=\x02>"))).toBeUndefined();
  });
});
