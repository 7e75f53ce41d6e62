import { CharacterReferenceDecoder } from "./character-references.js";
import { isControl, isEventHandler, isLetter, isNameChar, isWhitespace, matchPhrase } from "./markup-syntax.js";
import { classifyUrl } from "./svg-url.js";

/**
 * Elements that make a page out of whatever contains them: scripts, frames, plug-ins, documents,
 * forms and styles. Compared by local name (`html:script` is a script), case-insensitively.
 */
const DANGEROUS_ELEMENTS: ReadonlySet<string> = new Set([
  "script", "html", "head", "body", "iframe", "frame", "frameset", "object", "embed", "applet", "svg",
  "math", "meta", "base", "form", "style", "template", "portal", "noscript",
]);

/** URL schemes that run code wherever they appear, matched in text and attribute values alike. */
const SCRIPT_SCHEMES = ["javascript:", "vbscript:"];

const LONGEST_TAG_NAME = 16;
const LONGEST_ATTRIBUTE_NAME = 32;
/** Enough of a value to tell a data: URL of a raster image from any other. */
const URL_PREFIX = 64;

const State = {
  Text: 0, TagOpen: 1, TagName: 2, BeforeAttributeName: 3, AttributeName: 4, AfterAttributeName: 5,
  BeforeValue: 6, DoubleQuoted: 7, SingleQuoted: 8, Unquoted: 9, Declaration: 10, Instruction: 11, EchoTag: 12,
} as const;
type State = (typeof State)[keyof typeof State];

/**
 * Finds markup that a browser, or a server-side include of an uploaded file, would act on: how an
 * image doubles as a page or a script. A small tolerant HTML tokenizer, not a list of strings: it
 * finds tags and attributes as a browser does (any case, `/` or any whitespace between
 * attributes, quoted or not, character references decoded in values and text) and reports
 * - an element of DANGEROUS_ELEMENTS, or any element with an `on...` event handler attribute, or
 *   an attribute value that is a javascript:, vbscript: or (non-raster) data: URL;
 * - a javascript: or vbscript: URL anywhere, even split by tabs and newlines or written with
 *   character references (`&#x6A;avascript:`);
 * - a PHP block (`<?php ` or `<?= ... ?>`) and an HTML doctype.
 *
 * A tag counts once a browser would build it: when its `>` arrives, and only when it holds no
 * control character other than whitespace. That is what keeps random bytes (compressed image
 * data, binary metadata) from looking like markup. Byte at a time, in constant memory, no
 * backtracking: push() chunks of any size, then finish(). Bytes are read as Latin-1, which
 * leaves the ASCII of markup intact in UTF-8 text as well.
 */
export class ActiveMarkupScanner {
  private state: State = State.Text;
  private found: string | undefined;
  private readonly references = new CharacterReferenceDecoder((char) => this.decoded(char));
  private name = "";
  /** The first reason the tag being read is active; reported only if the tag completes cleanly. */
  private pending: string | undefined;
  private controlInTag = false;
  private value = "";
  private phrase = 0;
  /** Per scheme of SCRIPT_SCHEMES, how much of it the latest characters spell. */
  private readonly schemes = SCRIPT_SCHEMES.map((scheme) => ({ scheme, matched: 0 }));

  /** Reads the next bytes; answers the first finding so far. Input after a finding is ignored. */
  push(bytes: Uint8Array): string | undefined {
    for (let i = 0; i < bytes.length && !this.found; i++) {
      if (this.state === State.Text && this.quietText()) {
        i = skipQuietText(bytes, i);
        if (i === bytes.length) break;
      }
      this.step(bytes[i]);
    }
    return this.found;
  }

  finish(): string | undefined {
    if (!this.found && (this.state === State.Text || this.isInValue())) this.references.flush();
    return this.found;
  }

  private step(char: number): void {
    if (this.state !== State.Text && isControl(char)) this.controlInTag = true;
    switch (this.state) {
      case State.Text:
        return this.text(char);
      case State.TagOpen:
        return this.tagOpen(char);
      case State.TagName:
        return this.tagName(char);
      case State.BeforeAttributeName:
      case State.AfterAttributeName:
        return this.betweenAttributes(char);
      case State.AttributeName:
        return this.attributeName(char);
      case State.BeforeValue:
        return this.beforeValue(char);
      case State.DoubleQuoted:
      case State.SingleQuoted:
        return this.quoted(char);
      case State.Unquoted:
        return this.unquoted(char);
      case State.Declaration:
        return this.declaration(char);
      case State.Instruction:
        return this.instruction(char);
      case State.EchoTag:
        return this.echoTag(char);
    }
  }

  private text(char: number): void {
    this.references.push(char);
    if (char !== 0x3c /* < */) return;
    this.references.flush();
    this.state = State.TagOpen;
    this.pending = undefined;
    this.controlInTag = false;
    this.name = "";
    this.phrase = 0;
  }

  private tagOpen(char: number): void {
    if (isLetter(char)) {
      this.state = State.TagName;
      this.name = String.fromCharCode(char | 0x20);
    } else if (char === 0x21 /* ! */) {
      this.state = State.Declaration;
    } else if (char === 0x3f /* ? */) {
      this.state = State.Instruction;
    } else {
      // `</x>` and `< x` build no element worth a look: read on as text (the conservative way).
      this.state = State.Text;
      this.text(char);
    }
  }

  private tagName(char: number): void {
    if (isWhitespace(char) || char === 0x2f /* / */ || char === 0x3e /* > */) {
      if (DANGEROUS_ELEMENTS.has(this.name)) this.pending ??= `a <${this.name}> element`;
      this.state = State.BeforeAttributeName;
      this.betweenAttributes(char);
    } else if (char === 0x3a /* : */) {
      this.name = ""; // keep the local name: `html:script` is a script
    } else if (isNameChar(char)) {
      if (this.name.length < LONGEST_TAG_NAME) this.name += String.fromCharCode(isLetter(char) ? char | 0x20 : char);
    } else {
      this.state = State.Text; // not a tag a browser would build into an element we look for
      this.text(char);
    }
  }

  /** Whitespace and `/` separate attributes (`<img/src=x/onerror=y>`); `>` ends the tag. */
  private betweenAttributes(char: number): void {
    if (char === 0x3e) return this.endTag();
    if (isWhitespace(char) || char === 0x2f) {
      this.state = State.BeforeAttributeName;
    } else if (char === 0x3d /* = */ && this.state === State.AfterAttributeName) {
      this.state = State.BeforeValue;
    } else {
      this.state = State.AttributeName;
      this.name = "";
      this.attributeName(char);
    }
  }

  private attributeName(char: number): void {
    if (isWhitespace(char) || char === 0x2f || char === 0x3e || char === 0x3d) {
      if (isEventHandler(this.name)) this.pending ??= `an ${this.name} event handler`;
      this.state = State.AfterAttributeName;
      if (char === 0x3d) this.state = State.BeforeValue;
      else this.betweenAttributes(char);
    } else if (this.name.length < LONGEST_ATTRIBUTE_NAME) {
      this.name += String.fromCharCode(isLetter(char) ? char | 0x20 : char);
    }
  }

  private beforeValue(char: number): void {
    if (isWhitespace(char)) return;
    if (char === 0x3e) return this.endTag();
    this.value = "";
    for (const matcher of this.schemes) matcher.matched = 0;
    if (char === 0x22 /* " */) this.state = State.DoubleQuoted;
    else if (char === 0x27 /* ' */) this.state = State.SingleQuoted;
    else {
      this.state = State.Unquoted;
      this.unquoted(char);
    }
  }

  private quoted(char: number): void {
    if (char === (this.state === State.DoubleQuoted ? 0x22 : 0x27)) this.endValue(State.BeforeAttributeName);
    else this.references.push(char);
  }

  /** Ends at whitespace, `>` or, more eagerly than a browser, `/`. */
  private unquoted(char: number): void {
    if (isWhitespace(char) || char === 0x2f || char === 0x3e) {
      this.endValue(State.BeforeAttributeName);
      this.betweenAttributes(char);
    } else {
      this.references.push(char);
    }
  }

  private endValue(next: State): void {
    this.references.flush();
    const kind = classifyUrl(this.value);
    if (kind === "script" || kind === "data") this.pending ??= `a ${kind === "script" ? "script" : "data:"} URL in an attribute`;
    this.state = next;
  }

  private endTag(): void {
    if (this.pending && !this.controlInTag) this.found = this.pending;
    this.state = State.Text;
    for (const matcher of this.schemes) matcher.matched = 0;
  }

  /** `<!doctype html`: the phrase is matched as it comes, any run of whitespace between. */
  private declaration(char: number): void {
    const outcome = matchPhrase("doctype html", this.phrase, char);
    if (outcome === "done") this.found = "an HTML doctype";
    else if (outcome === "fail") this.backToText(char);
    else this.phrase = outcome;
  }

  /** `<?php` then whitespace runs PHP; `<?=` echoes up to its `?>`. `<?xml` and `<?xpacket` are inert. */
  private instruction(char: number): void {
    if (this.phrase === 0 && char === 0x3d /* = */) {
      this.state = State.EchoTag;
      this.controlInTag = false;
      return;
    }
    const outcome = matchPhrase("php ", this.phrase, char);
    if (outcome === "done") this.found = "a PHP block";
    else if (outcome === "fail") this.backToText(char);
    else this.phrase = outcome;
  }

  private echoTag(char: number): void {
    if (this.controlInTag) return this.backToText(char);
    if (char === 0x3f) this.phrase = 1;
    else if (char === 0x3e && this.phrase === 1) this.found = "a PHP echo block";
    else this.phrase = 0;
  }

  private backToText(char: number): void {
    this.state = State.Text;
    this.text(char);
  }

  /** A character of text or of an attribute value, references decoded. */
  private decoded(char: number): void {
    if (this.isInValue() && this.value.length < URL_PREFIX) this.value += String.fromCharCode(char);
    if (char === 0x09 || char === 0x0a || char === 0x0d) return; // URL parsers drop them anywhere
    const lower = isLetter(char) ? char | 0x20 : char;
    for (const matcher of this.schemes) {
      // The first letter of each scheme appears in it only once, so a mismatch restarts cleanly.
      if (lower === matcher.scheme.charCodeAt(matcher.matched)) matcher.matched++;
      else matcher.matched = lower === matcher.scheme.charCodeAt(0) ? 1 : 0;
      if (matcher.matched === matcher.scheme.length) this.found ??= `a ${matcher.scheme} URL`;
    }
  }

  /** In text with nothing under way: only a byte of TEXT_TRIGGERS can change anything. */
  private quietText(): boolean {
    return this.references.idle && this.schemes.every((matcher) => matcher.matched === 0);
  }

  private isInValue(): boolean {
    return this.state === State.DoubleQuoted || this.state === State.SingleQuoted || this.state === State.Unquoted;
  }
}

/** The first active markup in `bytes`, or undefined. */
export function findActiveMarkup(bytes: Uint8Array): string | undefined {
  const scanner = new ActiveMarkupScanner();
  scanner.push(bytes);
  return scanner.finish();
}

/** Bytes that can start something in quiet text: a tag, a reference, or a script scheme. */
const TEXT_TRIGGERS = new Uint8Array(256);
for (const char of "<&jJvV") TEXT_TRIGGERS[char.charCodeAt(0)] = 1;

/** The index of the first byte at or after `from` that quiet text must look at. */
function skipQuietText(bytes: Uint8Array, from: number): number {
  let i = from;
  while (i < bytes.length && TEXT_TRIGGERS[bytes[i]] === 0) i++;
  return i;
}
