/**
 * The README is an index: at most 200 lines, and every relative link in it and in docs/*.md leads
 * somewhere. A link's file must exist (relative to the page that links it) and a `#anchor` into a
 * Markdown page must name one of its headings, slugged as GitHub renders them. Links inside code
 * (fenced blocks and inline spans) are text, not links, and are skipped; so are http(s) and mailto.
 * The repository paths the README names in code spans (its tour and "Your first change" table)
 * must exist too, so that a file moved without the README following fails here.
 *
 * The scanner walks each line once (the lint refuses regexes that can backtrack super-linearly).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const README_MAX_LINES = 200;

interface Link {
  line: number;
  target: string;
}

/** The page's lines with fenced code blocks blanked (kept as empty lines, so numbers stay right). */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const trimmed = line.trimStart();
    const marker = trimmed.startsWith("```") ? "```" : trimmed.startsWith("~~~") ? "~~~" : undefined;
    if (fence === undefined) {
      if (marker === undefined) return line;
      fence = marker;
      return "";
    }
    if (marker === fence) fence = undefined;
    return "";
  });
}

/** The line split into its prose (inline code spans removed) and the spans' contents. */
function splitCodeSpans(line: string): { prose: string; spans: string[] } {
  let prose = "";
  const spans: string[] = [];
  let i = 0;
  while (i < line.length) {
    if (line[i] !== "`") {
      prose += line[i];
      i++;
      continue;
    }
    // A span runs from n backticks to the next run of exactly n; a longer run does not close it.
    let run = 0;
    while (line[i + run] === "`") run++;
    const open = "`".repeat(run);
    let close = line.indexOf(open, i + run);
    while (close !== -1 && line[close + run] === "`") {
      let end = close;
      while (line[end] === "`") end++;
      close = line.indexOf(open, end);
    }
    if (close === -1) {
      // An unmatched run is literal text.
      prose += open;
      i += run;
      continue;
    }
    spans.push(line.slice(i + run, close).trim());
    i = close + run;
  }
  return { prose, spans };
}

/** Every `[text](target)` and `![alt](target)` of the page, code excluded; the title, if any, dropped. */
function linksOf(text: string): Link[] {
  const links: Link[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = splitCodeSpans(raw).prose;
    let from = 0;
    for (let at = line.indexOf("](", from); at !== -1; at = line.indexOf("](", from)) {
      const close = line.indexOf(")", at + 2);
      if (close === -1) break;
      let target = line.slice(at + 2, close).trim();
      const space = target.indexOf(" ");
      if (space !== -1) target = target.slice(0, space);
      if (target.startsWith("<") && target.endsWith(">")) target = target.slice(1, -1);
      if (line.lastIndexOf("[", at) !== -1 && target !== "") links.push({ line: index + 1, target });
      from = close + 1;
    }
  });
  return links;
}

/** GitHub's heading anchor: lowercase, punctuation dropped (hyphens, underscores and spaces kept), spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replaceAll(" ", "-");
}

/** The anchors of a page's ATX headings (`#` to `######`), with GitHub's `-1`, `-2` for repeats. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    let level = 0;
    while (line[level] === "#") level++;
    if (level === 0 || level > 6 || line[level] !== " ") continue;
    let end = line.length;
    while (end > level && (line[end - 1] === "#" || line[end - 1] === " ")) end--;
    const base = slug(line.slice(level + 1, end).trim());
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    anchors.add(repeats === 0 ? base : `${base}-${repeats}`);
  }
  return anchors;
}

function isExternal(target: string): boolean {
  const lower = target.toLowerCase();
  return lower.startsWith("http://") || lower.startsWith("https://") || lower.startsWith("mailto:");
}

/** What is wrong with each relative link of the page at `file` (absolute path), as "file:line target: problem". */
function brokenLinks(file: string, text: string, read: (path: string) => string): string[] {
  const problems: string[] = [];
  for (const { line, target } of linksOf(text)) {
    if (isExternal(target)) continue;
    const hash = target.indexOf("#");
    const path = hash === -1 ? target : target.slice(0, hash);
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = path === "" ? file : join(dirname(file), decodeURIComponent(path));
    const where = `${relative(root, file)}:${line} ${target}`;
    if (!existsSync(resolved)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(read(resolved)).has(anchor)) {
      problems.push(`${where}: no heading with that anchor`);
    }
  }
  return problems;
}

/** Top-level folders of the repository: a code span starting with one of them names a path. */
const REPO_FOLDERS = ["proto/", "packages/", "src/", "workflows/", "test/", "docs/", "scripts/", "lint/"];

/** The repository paths the page names in code spans, placeholders (`<module>`, globs) excepted. */
function repoPathsOf(text: string): Link[] {
  const paths: Link[] = [];
  proseLines(text).forEach((raw, index) => {
    for (const span of splitCodeSpans(raw).spans) {
      const named = REPO_FOLDERS.some((folder) => span.startsWith(folder));
      const placeholder = [..."<>*{} "].some((c) => span.includes(c));
      if (named && !placeholder) paths.push({ line: index + 1, target: span });
    }
  });
  return paths;
}

const read = (path: string): string => readFileSync(path, "utf8");
const docs = readdirSync(join(root, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => join(root, "docs", name));
const pages = [join(root, "README.md"), ...docs];

describe("documentation links", () => {
  it("README.md stays an index of at most 200 lines", () => {
    const text = read(join(root, "README.md"));
    const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("every relative link of README.md and docs/*.md reaches an existing file and heading", () => {
    expect(docs.length).toBeGreaterThan(0);
    const problems = pages.flatMap((page) => brokenLinks(page, read(page), read));
    expect(problems).toEqual([]);
  });

  it("every repository path README.md names in code (the tour, the first-change table) exists", () => {
    const paths = repoPathsOf(read(join(root, "README.md")));
    expect(paths.map((p) => p.target)).toContain("src/domain/files/checks/scanner.ts");
    const missing = paths.filter((p) => !existsSync(join(root, p.target))).map((p) => `README.md:${p.line} ${p.target}`);
    expect(missing).toEqual([]);
  });

  it("the README links into docs/, so the check above has links to check", () => {
    const targets = linksOf(read(join(root, "README.md"))).map((link) => link.target);
    expect(targets).toContain("docs/architecture.md");
  });

  it("reports a missing file and a missing anchor, and skips code and external links", () => {
    const page = join(root, "README.md");
    const sample = [
      "# A page",
      "[ok](docs/architecture.md#layout-and-import-rules) [self](#a-page) [web](https://example.com/x)",
      "[gone](docs/no-such-page.md) and [bad anchor](docs/architecture.md#no-such-heading)",
      "`[in code](docs/also-missing.md)`",
      "```",
      "[in a fence](docs/fenced-missing.md)",
      "```",
    ].join("\n");
    expect(brokenLinks(page, sample, (path) => (path === page ? sample : read(path)))).toEqual([
      "README.md:3 docs/no-such-page.md: no such file",
      "README.md:3 docs/architecture.md#no-such-heading: no heading with that anchor",
    ]);
  });

  it("slugs headings as GitHub does", () => {
    expect(slug("Layout and import rules")).toBe("layout-and-import-rules");
    expect(slug("Options of `createUpload(file, options)`")).toBe("options-of-createuploadfile-options");
    expect(slug("The `pattern` engine, per platform")).toBe("the-pattern-engine-per-platform");
    expect([...anchorsOf("# A\n## A\n```\n# not a heading\n```\n")]).toEqual(["a", "a-1"]);
  });
});
