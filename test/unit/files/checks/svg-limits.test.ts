import { describe, expect, it } from "vitest";
import { scanCss } from "../../../../src/domain/files/checks/css-references.js";
import { scanFile } from "../../../../src/domain/files/checks/scanner.js";
import { checkSvgSafety, DEFAULT_SVG_LIMITS } from "../../../../src/domain/files/checks/svg-safety.js";
import { bufferSource, nestedSvg, svg, worstCaseSvg } from "../../../fixtures/files/index.js";

/** CPU seconds (user + system) this process spent in `run`: other processes on the machine do not count. */
async function cpuSeconds<T>(run: () => Promise<T> | T): Promise<{ result: T; seconds: number }> {
  const start = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(start);
  return { result, seconds: (used.user + used.system) / 1e6 };
}

const UNBOUNDED = { maxBytes: 100 * 1024 * 1024, maxDepth: 10_000_000, maxElements: 10_000_000, maxCssChars: 100 * 1024 * 1024 };

describe("checkSvgSafety: cost bounded by the size of the file", () => {
  // 30 000 nested groups (210 KB) took 7.7 s of CPU before: saxes walked every open element to
  // resolve each element's namespace. Linear now, and refused at the depth limit anyway.
  const pathological = nestedSvg(30_000);

  it("refuses the deeply nested SVG at the depth limit, quickly", async () => {
    const { result, seconds } = await cpuSeconds(() => checkSvgSafety(bufferSource(pathological)));
    expect(result).toMatchObject({ passed: false, reason: "SVG_TOO_DEEP" });
    expect(seconds).toBeLessThan(1);
  });

  it("parses it in linear time even with no depth limit", async () => {
    const { result, seconds } = await cpuSeconds(() => checkSvgSafety(bufferSource(pathological), UNBOUNDED));
    expect(result).toEqual({ name: "svg_safety", passed: true });
    expect(seconds).toBeLessThan(2);
  });

  it("scans the worst case allowed (5 MiB) in a bounded time", async () => {
    const bytes = worstCaseSvg();
    expect(bytes.length).toBeGreaterThan(DEFAULT_SVG_LIMITS.maxBytes * 0.9);
    const { result, seconds } = await cpuSeconds(() => checkSvgSafety(bufferSource(bytes, { chunkSize: bytes.length })));
    expect(result).toEqual({ name: "svg_safety", passed: true });
    expect(seconds).toBeLessThan(5);
  });

  it.each([
    ["url( then spaces and no )", `url(${" ".repeat(1_000_000)}`],
    ["url( repeated", "url(".repeat(250_000)],
    ['url(" repeated', 'url("'.repeat(200_000)],
    ["image-set( repeated", "image-set(".repeat(100_000)],
    ["unclosed comments", "/*".repeat(500_000)],
  ])("reads CSS in linear time: %s", async (_name, css) => {
    const { seconds } = await cpuSeconds(() => scanCss(css));
    expect(seconds).toBeLessThan(1);
  });
});

describe("checkSvgSafety: structure limits", () => {
  it("accepts nesting up to the limit and refuses one level more", async () => {
    const limits = { ...DEFAULT_SVG_LIMITS, maxDepth: 10 };
    await expect(checkSvgSafety(bufferSource(nestedSvg(9)), limits)).resolves.toMatchObject({ passed: true });
    await expect(checkSvgSafety(bufferSource(nestedSvg(10)), limits)).resolves.toMatchObject({ reason: "SVG_TOO_DEEP" });
  });

  it("accepts elements up to the limit and refuses one more", async () => {
    const limits = { ...DEFAULT_SVG_LIMITS, maxElements: 10 };
    await expect(checkSvgSafety(bufferSource(svg("<rect/>".repeat(9))), limits)).resolves.toMatchObject({ passed: true });
    await expect(checkSvgSafety(bufferSource(svg("<rect/>".repeat(10))), limits)).resolves.toMatchObject({ reason: "SVG_TOO_MANY_ELEMENTS" });
  });

  it("accepts CSS up to the limit in one style element or attribute, and refuses more", async () => {
    const limits = { ...DEFAULT_SVG_LIMITS, maxCssChars: 100 };
    const css = (length: number) => `.a{fill:url(#g)}${" ".repeat(length - 16)}`;
    await expect(checkSvgSafety(bufferSource(svg(`<style>${css(100)}</style><rect style="${css(100)}"/>`)), limits)).resolves.toMatchObject({ passed: true });
    await expect(checkSvgSafety(bufferSource(svg(`<style>${css(101)}</style>`)), limits)).resolves.toMatchObject({ reason: "SVG_CSS_TOO_LARGE" });
    await expect(checkSvgSafety(bufferSource(svg(`<style><![CDATA[${css(60)}]]>${css(41)}</style>`)), limits)).resolves.toMatchObject({ reason: "SVG_CSS_TOO_LARGE" });
    await expect(checkSvgSafety(bufferSource(svg(`<rect style="${css(101)}"/>`)), limits)).resolves.toMatchObject({ reason: "SVG_CSS_TOO_LARGE" });
  });

  it("does not count a base64 raster image as CSS, however large", async () => {
    const image = `data:image/png;base64,${"iVBORw0KGgo".repeat(1000)}`;
    const limits = { ...DEFAULT_SVG_LIMITS, maxCssChars: 100 };
    await expect(checkSvgSafety(bufferSource(svg(`<image href="${image}"/>`)), limits)).resolves.toEqual({ name: "svg_safety", passed: true });
  });

  it("takes its limits from the scan options", async () => {
    const outcome = await scanFile("image/svg+xml", bufferSource(nestedSvg(5)), { svgLimits: { ...DEFAULT_SVG_LIMITS, maxDepth: 3 } });
    expect(outcome.checks[1]).toMatchObject({ name: "svg_safety", reason: "SVG_TOO_DEEP" });
  });

  it("reads CSS the same way: quoted, unquoted, unclosed", () => {
    expect(scanCss("a{b:url( \"x\" );c:url('y' z);d:url(w").urls).toEqual(["x", "'y' z", "w"]);
    expect(scanCss('a{b:image-set("p" 1x, "q" 2x);c:image-set("r"').urls).toEqual(["p", "q", "r"]);
  });
});

describe("checkSvgSafety: namespaces in scope", () => {
  const XHTML = "http://www.w3.org/1999/xhtml";

  it.each([
    ["a prefix rebound in a child", `<g xmlns:h="urn:a"><g xmlns:h="${XHTML}"><h:p/></g></g>`, "SVG_FOREIGN_OBJECT"],
    ["a prefix back to its outer binding after the child closed", `<g xmlns:h="${XHTML}"><g xmlns:h="urn:a"/><h:p/></g>`, "SVG_FOREIGN_OBJECT"],
    ["the default namespace rebound", `<g xmlns="${XHTML}"><p/></g>`, "SVG_FOREIGN_OBJECT"],
    ["a prefix bound on the element itself", `<h:p xmlns:h="${XHTML}"/>`, "SVG_FOREIGN_OBJECT"],
    ["an unbound prefix named like an Object property", "<constructor:g/>", "SVG_PARSE_ERROR"],
    ["an unbound attribute prefix named like an Object property", '<g toString:x="1"/>', "SVG_PARSE_ERROR"],
    ["a prefix used after the element that bound it closed", '<g xmlns:h="urn:a"/><h:p/>', "SVG_PARSE_ERROR"],
  ])("resolves %s", async (_name, body, reason) => {
    await expect(checkSvgSafety(bufferSource(svg(body)))).resolves.toMatchObject({ passed: false, reason });
  });

  it("keeps an inner binding local to its element", async () => {
    const body = `<g xmlns:h="urn:a"><g xmlns:h="${XHTML}"/><h:p/></g><rect xml:space="preserve"/>`;
    await expect(checkSvgSafety(bufferSource(svg(body)))).resolves.toEqual({ name: "svg_safety", passed: true });
  });
});

describe("checkSvgSafety: checkpoints", () => {
  it("awaits the checkpoint between slices, even when the whole file arrives as one chunk", async () => {
    const bytes = svg("<rect/>".repeat(50_000));
    let pauses = 0;
    const result = await checkSvgSafety(bufferSource(bytes, { chunkSize: bytes.length }), DEFAULT_SVG_LIMITS, async () => {
      pauses++;
    });
    expect(result.passed).toBe(true);
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(bytes.length / (64 * 1024)));
  });

  it("stops the scan with what the checkpoint throws, not as a failed check", async () => {
    const superseded = new Error("superseded");
    const source = bufferSource(worstCaseSvg(), { chunkSize: 64 * 1024 });
    let pauses = 0;
    const scan = scanFile("image/svg+xml", source, {
      checkpoint: async () => {
        if (++pauses === 3) throw superseded;
      },
    });
    await expect(scan).rejects.toBe(superseded);
    expect(source.bytesServed).toBeLessThan(4 * 64 * 1024);
  });
});
