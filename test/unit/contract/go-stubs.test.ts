/**
 * The Go stubs in clients/go/gen are committed: they must be what buf.gen.go.yaml makes of
 * proto/ today, built with plugins at the versions of the runtimes clients/go/go.mod requires,
 * and the module must pass gofmt and go vet.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateGoStubs } from "../../../scripts/go-stubs.js";
import { GO_STUB_RUNTIMES } from "../../../src/stack/go-binaries.js";
import { go, gofmt, goModuleDir } from "../../support/go-module.js";

const root = process.cwd();
const committed = path.join(goModuleDir, "gen");
const fresh = mkdtempSync(path.join(tmpdir(), "go-stubs-"));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

/** Every file under `dir`, by path relative to it, with its text. */
function tree(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    files.map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [path.relative(dir, file), readFileSync(file, "utf8")];
    }),
  );
}

// The first run builds the two plugins and fetches the module's dependencies (`npm test`'s
// pretest has built the plugins already); later runs take about a second.
const FIRST_RUN_BUILDS = { timeout: 300_000 };

describe("the Go stubs in clients/go", () => {
  it("are what `npm run generate` makes of proto/ today", FIRST_RUN_BUILDS, async () => {
    const result = await generateGoStubs(fresh, { projectRoot: root, log: () => {} });
    expect(result).toEqual({ ok: true });
    const generated = tree(path.join(fresh, "clients", "go", "gen"));
    expect(Object.keys(generated).length).toBeGreaterThan(0);
    expect(tree(committed), "clients/go/gen is stale: run `npm run generate`").toEqual(generated);
  });

  it("use the runtimes of the plugins' versions", () => {
    const goMod = readFileSync(path.join(goModuleDir, "go.mod"), "utf8");
    for (const [module, version] of Object.entries(GO_STUB_RUNTIMES)) expect(goMod).toContain(`\t${module} ${version}\n`);
  });

  it("are gofmt- and go vet-clean, with the program that uses them", FIRST_RUN_BUILDS, async () => {
    const unformatted = await gofmt(["-l", "."]);
    expect(unformatted).toEqual({ code: 0, stdout: "", stderr: "" });
    // Fetched first: on a machine whose module cache lacks them, `go vet` would report its
    // downloads ("go: downloading …") on stderr, where only its findings belong.
    expect(await go(["mod", "download"])).toMatchObject({ code: 0 });
    const vet = await go(["vet", "./..."]);
    expect(vet.stderr).toBe("");
    expect(vet.code).toBe(0);
  });
});
