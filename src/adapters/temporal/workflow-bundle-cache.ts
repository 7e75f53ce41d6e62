/**
 * Workflow bundles kept on disk between worker starts (TEMPORAL_WORKFLOW_BUNDLE_CACHE): bundling
 * costs seconds of CPU at every start, and a worker restarted by a supervisor, a rollout or a test
 * bundles the same sources again. A bundle is named for what it is built from (every source file
 * under workflows/ and src/, the locked dependencies, the interceptor modules), so a change to any
 * of them builds a new one; nothing is ever read back that another set of sources built.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { WorkflowBundle } from "@temporalio/worker";
import { workflowsPath } from "./workflow-bundle.js";

const projectRoot = path.resolve(path.dirname(workflowsPath), "..");
const SOURCE_DIRS = ["workflows", "src"];

/** The bundle built from these sources, from `cacheDir` when one was kept there, else built and kept. */
export async function cachedWorkflowBundle(
  cacheDir: string | undefined,
  interceptorModules: readonly string[],
  build: () => Promise<WorkflowBundle>,
): Promise<WorkflowBundle> {
  if (!cacheDir) return build();
  const file = path.join(cacheDir, `workflows-${await bundleKey(interceptorModules)}.js`);
  const kept = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (kept !== undefined) return { code: kept };
  const bundle = await build();
  await mkdir(cacheDir, { recursive: true });
  // Through a temporary name: workers starting at once never read a half-written bundle.
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, bundle.code);
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  return bundle;
}

/** A digest of every input a bundle is built from. */
export async function bundleKey(interceptorModules: readonly string[], root = projectRoot): Promise<string> {
  const hash = createHash("sha256");
  for (const module of interceptorModules) hash.update(`interceptor ${module}\n`);
  hash.update(await readFile(path.join(root, "package-lock.json")).catch(() => "no lock file"));
  for (const dir of SOURCE_DIRS) {
    const files = (await readdir(path.join(root, dir), { recursive: true })).filter((name) => name.endsWith(".ts")).sort();
    for (const name of files) {
      hash.update(`\n${dir}/${name}\n`);
      hash.update(await readFile(path.join(root, dir, name)));
    }
  }
  return hash.digest("hex").slice(0, 32);
}
