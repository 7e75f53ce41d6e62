/**
 * The Temporal CLI (which embeds the dev server), the Temporal server, schema tool and UI server
 * (TEMPORAL_MODE=server), MinIO, tusd (the tus reference server, a peer of the upload benchmark
 * only), grpcurl and grpc-health-probe (third-party clients of the interop and health tests), connectconformance (the Connect
 * conformance suite's runner, test/conformance) and protoc-gen-go and protoc-gen-connect-go (the
 * buf plugins of the Go stubs in clients/go) are Go programs. We use one
 * already on PATH, else one built earlier into `<projectRoot>/.tools/bin` (`.tools/<name>/bin`
 * for the Temporal server's three), else one this user built for another clone (tools-cache.ts),
 * else build it from source: `go install` for all but tusd; tusd through a throwaway wrapper
 * module (see TUSD below). Prebuilt binaries are never downloaded: building from the Go module
 * proxy is the only way that works on every machine this project runs on.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync, type WriteStream } from "node:fs";
import path from "node:path";
import { isExecutableFile } from "./executable-file.js";
import { buildingLine, builtLine, progressDue, statusText, type RunningBuild } from "./build-progress.js";
import { tailFile, type Log } from "./log-file.js";
import { cacheBuiltTool, restoreCachedTool } from "./tools-cache.js";

export type GoBinaryName =
  | "temporal"
  | "minio"
  | "tusd"
  | "grpcurl"
  | "grpc-health-probe"
  | "connectconformance"
  | "protoc-gen-go"
  | "protoc-gen-connect-go"
  | TemporalServerBinary;

/**
 * protobuf-go and connect-go: the buf plugins of the Go stubs in clients/go are built at these
 * versions, and clients/go/go.mod requires the same runtimes (test/unit/contract/go-stubs.test.ts).
 */
export const GO_STUB_RUNTIMES = { "google.golang.org/protobuf": "v1.36.12", "connectrpc.com/connect": "v1.19.1" };

/**
 * The real Temporal server (TEMPORAL_MODE=server), its schema tool and its Web UI. Two of the
 * three main packages are called `server`, so each is installed into its own folder,
 * `.tools/<name>/bin/<package name>`; on PATH they go by the names Temporal's images give them.
 * The server is the version the CLI above embeds.
 */
type TemporalServerBinary = "temporal-server" | "temporal-sql-tool" | "temporal-ui-server";

const OWN_FOLDER: Record<TemporalServerBinary, { module: string; built: string }> = {
  "temporal-server": { module: "go.temporal.io/server/cmd/server@v1.29.1", built: "server" },
  "temporal-sql-tool": { module: "go.temporal.io/server/cmd/tools/sql@v1.29.1", built: "sql" },
  "temporal-ui-server": { module: "github.com/temporalio/ui-server/v2/cmd/server@v2.42.1", built: "server" },
};

/**
 * The Connect conformance suite: its runner, and the .proto files of its ConformanceService, which
 * test/conformance generates TypeScript from in the module cache (scripts/conformance-code.ts).
 */
export const CONFORMANCE = { module: "connectrpc.com/conformance", version: "v1.0.7" };

const MODULES: Record<Exclude<GoBinaryName, "tusd">, string> = {
  // Later tags of the CLI carry a `replace` directive in go.mod, which `go install pkg@version`
  // refuses; v1.5.1 is the newest that installs this way.
  temporal: "github.com/temporalio/cli/cmd/temporal@v1.5.1",
  // MinIO tags no semver releases: a pinned commit (its pseudo-version), so that every clone runs
  // the same MinIO and a build can be kept for other clones (tools-cache.ts).
  minio: "github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c",
  // A gRPC client this project did not write, for the interop tests (server reflection).
  grpcurl: "github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.4",
  // The gRPC health probe Kubernetes users run (exec probes), for the health tests.
  "grpc-health-probe": "github.com/grpc-ecosystem/grpc-health-probe@v0.4.62",
  connectconformance: `${CONFORMANCE.module}/cmd/connectconformance@${CONFORMANCE.version}`,
  "protoc-gen-go": `google.golang.org/protobuf/cmd/protoc-gen-go@${GO_STUB_RUNTIMES["google.golang.org/protobuf"]}`,
  "protoc-gen-connect-go": `connectrpc.com/connect/cmd/protoc-gen-connect-go@${GO_STUB_RUNTIMES["connectrpc.com/connect"]}`,
  "temporal-server": OWN_FOLDER["temporal-server"].module,
  "temporal-sql-tool": OWN_FOLDER["temporal-sql-tool"].module,
  "temporal-ui-server": OWN_FOLDER["temporal-ui-server"].module,
};

/**
 * tusd is built from a wrapper module made at build time under .tools/src/tusd (no tusd source is
 * kept in this repository): its go.mod requires the pinned release, and `go build` builds the
 * release's own main package. `go install github.com/tus/tusd/v2/cmd/tusd@…` is not used.
 */
export const TUSD = { module: "github.com/tus/tusd/v2", version: "v2.10.1", main: "github.com/tus/tusd/v2/cmd/tusd" };

const GO_FALLBACKS = ["/usr/local/go/bin/go"];

export interface EnsureBinaryOptions {
  projectRoot: string;
  log: Log;
  /**
   * A terminal's status line (status-line.ts): progress is rewritten there about every second.
   * Without one, progress goes to `log`, a line per build every 30 s at most.
   */
  status?: (text: string) => void;
}

export function findOnPath(name: string, pathVariable = process.env.PATH ?? ""): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.resolve(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** The go command: on PATH, else where Go's installer puts it. */
export function findGo(): string | undefined {
  return findOnPath("go") ?? GO_FALLBACKS.find(isExecutableFile);
}

export function toolsBinDir(projectRoot: string): string {
  return path.join(projectRoot, ".tools", "bin");
}

/** Builds of one binary started by this process, so parallel callers share one build. */
const builds = new Map<GoBinaryName, Promise<string>>();

export async function ensureBinary(name: GoBinaryName, options: EnsureBinaryOptions): Promise<string> {
  const onPath = findOnPath(name);
  if (onPath) return onPath;
  const local = localPath(name, options.projectRoot);
  if (isExecutableFile(local)) return local;
  if (restoreCachedTool(buildKey(name), local)) return local;
  let build = builds.get(name);
  if (!build) {
    build = goInstall(name, local, options)
      .then((built) => cacheBuiltTool(buildKey(name), built, options.log))
      .finally(() => builds.delete(name));
    builds.set(name, build);
  }
  return build;
}

/** What a build of `name` is built from: the module at its version (tusd: the release's main package). */
function buildKey(name: GoBinaryName): string {
  return name === "tusd" ? `${TUSD.main}@${TUSD.version}` : MODULES[name];
}

function localPath(name: GoBinaryName, projectRoot: string): string {
  if (name in OWN_FOLDER) {
    const own = OWN_FOLDER[name as TemporalServerBinary];
    return path.join(projectRoot, ".tools", name, "bin", own.built);
  }
  return path.join(toolsBinDir(projectRoot), name);
}

/** The go commands that put `name` at `target`, each run in its own directory. */
function buildSteps(name: GoBinaryName, target: string, projectRoot: string): { cwd?: string; args: string[] }[] {
  if (name !== "tusd") return [{ args: ["install", MODULES[name]] }];
  const cwd = path.join(projectRoot, ".tools", "src", "tusd");
  rmSync(cwd, { recursive: true, force: true });
  mkdirSync(cwd, { recursive: true });
  return [
    { cwd, args: ["mod", "init", "tusd-build"] },
    // Resolves the main package's dependencies too, so go.sum holds all that the build needs.
    { cwd, args: ["get", `${TUSD.main}@${TUSD.version}`] },
    // As tusd's release builds do, so that `tusd -version` names the release.
    { cwd, args: ["build", "-ldflags", `-X ${TUSD.main}/cli.VersionName=${TUSD.version}`, "-o", target, TUSD.main] },
  ];
}

async function goInstall(name: GoBinaryName, target: string, options: EnsureBinaryOptions): Promise<string> {
  const go = findGo();
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
  const steps = buildSteps(name, target, options.projectRoot);
  const command = name === "tusd" ? `go build ${TUSD.main}@${TUSD.version}` : `go install ${MODULES[name]}`;
  options.log(`building ${name} (${command}), first run only, several minutes; go's output: ${buildLog}`);

  const started = Date.now();
  const out = createWriteStream(buildLog, { flags: "w" });
  // The go binary's own directory goes on PATH for when it was found only at a fallback path.
  const env = { ...process.env, GOBIN: binDir, PATH: `${path.dirname(go)}${path.delimiter}${process.env.PATH ?? ""}` };
  const unwatch = watch({ name, command, startedAt: started, lastShownAt: started, log: options.log, status: options.status });
  let failed: string | undefined;
  try {
    for (const step of steps) {
      const code = await runGo(go, step.args, step.cwd, env, out);
      if (code !== 0) {
        failed = `go ${step.args.join(" ")} failed (exit code ${code})`;
        break;
      }
    }
  } finally {
    unwatch();
    await new Promise<void>((resolve) => out.end(resolve));
  }

  if (failed || !isExecutableFile(target)) {
    throw new Error(`${failed ?? `go did not produce ${target}`}; full log: ${buildLog}\n${await tailFile(buildLog, 15)}`);
  }
  options.log(builtLine(name, target, started, Date.now()));
  return target;
}

interface WatchedBuild extends RunningBuild {
  lastShownAt: number;
  log: Log;
  status?: (text: string) => void;
}

/** Builds in progress in this process; one ticker reports them all (they share a status line). */
const watched = new Set<WatchedBuild>();
let ticker: NodeJS.Timeout | undefined;
// Finer than the terminal's pace, so that a late tick does not skip a second.
const TICK_MS = 250;

function watch(build: WatchedBuild): () => void {
  watched.add(build);
  ticker ??= setInterval(reportProgress, TICK_MS);
  return () => {
    watched.delete(build);
    if (watched.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
    // The line now shows only the builds still running, or nothing.
    build.status?.(statusText(onStatusLine(build.status), Date.now()));
  };
}

const onStatusLine = (status: WatchedBuild["status"]) => [...watched].filter((build) => build.status === status);

function reportProgress(): void {
  const now = Date.now();
  for (const build of watched) {
    if (!progressDue(build.status ? "terminal" : "log", build.lastShownAt, now)) continue;
    if (build.status) {
      // One rewrite shows every build on that line.
      const line = onStatusLine(build.status);
      for (const shown of line) shown.lastShownAt = now;
      build.status(statusText(line, now));
    } else {
      build.lastShownAt = now;
      build.log(buildingLine(build, now));
    }
  }
}

/** go's own output (`go: downloading …`, compiler errors) goes to the build log only. */
async function runGo(go: string, args: string[], cwd: string | undefined, env: NodeJS.ProcessEnv, out: WriteStream): Promise<number | null> {
  out.write(`$ go ${args.join(" ")}${cwd ? ` (in ${cwd})` : ""}\n`);
  const child = spawn(go, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) stream.pipe(out, { end: false });
  return new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode) => resolve(exitCode));
  });
}
