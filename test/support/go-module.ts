/**
 * The Go module in clients/go, driven by the Go toolchain the project builds its Go tools with:
 * its dependencies come from the module cache (or the Go module proxy on a first run).
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { findGo } from "../../src/stack/go-binaries.js";
import { runProcess, type CliRun } from "./cli-process.js";

export const goModuleDir = path.join(process.cwd(), "clients", "go");

function goCommand(): string {
  const go = findGo();
  if (!go) throw new Error("Go is not installed: the Go module in clients/go needs it (https://go.dev/dl/)");
  return go;
}

/** `go <args>` in clients/go; no VCS stamping, since the checkout may be dirty or not a clone. */
export function go(args: string[]): Promise<CliRun> {
  return runProcess(goCommand(), args, { cwd: goModuleDir, env: { GOFLAGS: "-buildvcs=false" } });
}

/** gofmt, which comes with the go command. */
export function gofmt(args: string[]): Promise<CliRun> {
  return runProcess(path.join(path.dirname(realpathSync(goCommand())), "gofmt"), args, { cwd: goModuleDir });
}
