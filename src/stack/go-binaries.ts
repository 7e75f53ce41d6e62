/**
 * The Temporal CLI (which embeds the dev server) and MinIO are Go programs. We use one already
 * on PATH, else one built earlier into `<projectRoot>/.tools/bin`, else build it from source with
 * `go install`. Prebuilt binaries are never downloaded: building from the Go module proxy is the
 * only way that works on every machine this project runs on.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, createWriteStream, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { tailFile, type Log } from "./log-file.js";

export type GoBinaryName = "temporal" | "minio";

const MODULES: Record<GoBinaryName, string> = {
  // Later tags of the CLI carry a `replace` directive in go.mod, which `go install pkg@version`
  // refuses; v1.5.1 is the newest that installs this way.
  temporal: "github.com/temporalio/cli/cmd/temporal@v1.5.1",
  minio: "github.com/minio/minio@latest",
};

const GO_FALLBACKS = ["/usr/local/go/bin/go"];

export interface EnsureBinaryOptions {
  projectRoot: string;
  log: Log;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export function findOnPath(name: string, pathVariable = process.env.PATH ?? ""): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.resolve(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

export function toolsBinDir(projectRoot: string): string {
  return path.join(projectRoot, ".tools", "bin");
}

/** Builds of one binary started by this process, so parallel callers share one build. */
const builds = new Map<GoBinaryName, Promise<string>>();

export async function ensureBinary(name: GoBinaryName, options: EnsureBinaryOptions): Promise<string> {
  const onPath = findOnPath(name);
  if (onPath) return onPath;
  const local = path.join(toolsBinDir(options.projectRoot), name);
  if (isExecutableFile(local)) return local;
  let build = builds.get(name);
  if (!build) {
    build = goInstall(name, local, options).finally(() => builds.delete(name));
    builds.set(name, build);
  }
  return build;
}

async function goInstall(name: GoBinaryName, target: string, options: EnsureBinaryOptions): Promise<string> {
  const go = findOnPath("go") ?? GO_FALLBACKS.find(isExecutableFile);
  if (!go) {
    throw new Error(
      `${name} is not on PATH and not in ${path.dirname(target)}, and Go is not installed to build it. ` +
        `Install Go >= 1.24 (https://go.dev/dl/) and run again, or put a ${name} binary on PATH.`,
    );
  }
  const binDir = path.dirname(target);
  const logDir = path.join(options.projectRoot, ".tools", "logs");
  mkdirSync(binDir, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  const buildLog = path.join(logDir, `${name}-build.log`);
  const module = MODULES[name];
  options.log(`building ${name} with go install (first run only, several minutes)… log: ${buildLog}`);

  const started = Date.now();
  const out = createWriteStream(buildLog, { flags: "w" });
  const child = spawn(go, ["install", module], {
    // The go binary's own directory goes on PATH for when it was found only at a fallback path.
    env: { ...process.env, GOBIN: binDir, PATH: `${path.dirname(go)}${path.delimiter}${process.env.PATH ?? ""}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.pipe(out, { end: false });
    createInterface({ input: stream }).on("line", (line) => options.log(`  [go ${name}] ${line}`));
  }
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode) => resolve(exitCode));
  });
  await new Promise<void>((resolve) => out.end(resolve));

  if (code !== 0 || !isExecutableFile(target)) {
    throw new Error(
      `go install ${module} failed (exit code ${code}); full log: ${buildLog}\n${await tailFile(buildLog, 15)}`,
    );
  }
  options.log(`built ${target} in ${Math.round((Date.now() - started) / 1000)} s`);
  return target;
}
