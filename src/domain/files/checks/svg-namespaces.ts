import { SaxesParser } from "saxes";

const OPTIONS = { xmlns: true, position: true } as const;

/** The prefixes bound before any element (XML Namespaces 1.0, section 3). */
const PREDEFINED: ReadonlyMap<string, string> = new Map([
  ["xml", "http://www.w3.org/XML/1998/namespace"],
  ["xmlns", "http://www.w3.org/2000/xmlns/"],
]);

/** A start tag's own declarations, prefix to URI ("" is the default namespace). */
type Declarations = Readonly<Record<string, string>>;

const NONE: Declarations = Object.freeze(Object.create(null) as Record<string, string>);

/**
 * The namespace bindings in scope, kept per prefix as a stack of the URIs bound by the open
 * elements, so a lookup costs the same at any depth.
 */
export class NamespaceScope {
  private readonly bound = new Map<string, string[]>();
  /** The declarations of the element whose start tag is being read (filled as its attributes are). */
  private opening: Declarations = NONE;

  /** saxes' `opentagstart`: `ns` is filled with this element's declarations as they are read. */
  start(ns: Declarations): void {
    this.opening = ns;
  }

  /** saxes' `opentag`: the element's declarations are in scope for its content. */
  enter(ns: Declarations): void {
    for (const [prefix, uri] of Object.entries(ns)) {
      const stack = this.bound.get(prefix);
      if (stack) stack.push(uri);
      else this.bound.set(prefix, [uri]);
    }
    this.opening = NONE;
  }

  /** saxes' `closetag` (also sent for a self-closing element, after its `opentag`). */
  leave(ns: Declarations): void {
    for (const prefix of Object.keys(ns)) this.bound.get(prefix)?.pop();
  }

  /** Own properties and Maps only: a prefix such as `constructor` must not find Object.prototype. */
  resolve(prefix: string): string | undefined {
    if (Object.hasOwn(this.opening, prefix)) return this.opening[prefix];
    const stack = this.bound.get(prefix);
    return stack?.[stack.length - 1] ?? PREDEFINED.get(prefix);
  }
}

/**
 * saxes (6.0) resolves each prefix by walking every open element from the innermost out, so an
 * SVG of n nested elements took O(n²) time: a 700 KB file of nested `<g>` held the worker for
 * minutes. This parser answers from a NamespaceScope instead, which its owner keeps current from
 * the `opentagstart`, `opentag` and `closetag` events; everything else (well-formedness, unbound
 * prefix and duplicate attribute errors) is still saxes'.
 */
export class ScopedSaxesParser extends SaxesParser<typeof OPTIONS> {
  constructor(private readonly scope: NamespaceScope) {
    super(OPTIONS);
  }

  override resolve(prefix: string): string | undefined {
    return this.scope.resolve(prefix);
  }
}
