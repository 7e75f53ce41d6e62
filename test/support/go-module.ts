/**
 * The Go module in clients/go, driven by the Go toolchain the project builds its Go tools with:
 * its dependencies come from the module cache (or the Go module proxy on a first run).
 */
import { execFile } from "node:child_process";
import { realpathSync } from "node:fs";
import path from "node:path";
import { findGo } from "../../src/stack/go-binaries.js";

export const goModuleDir = path.join(process.cwd(), "clients", "go");

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CommandRun> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function goCommand(): string {
  const go = findGo();
  if (!go) throw new Error("Go is not installed: the Go module in clients/go needs it (https://go.dev/dl/)");
  return go;
}

/** `go <args>` in clients/go; no VCS stamping, since the checkout may be dirty or not a clone. */
export function go(args: string[]): Promise<CommandRun> {
  return run(goCommand(), args, { cwd: goModuleDir, env: { GOFLAGS: "-buildvcs=false" } });
}

/** gofmt, which comes with the go command. */
export function gofmt(args: string[]): Promise<CommandRun> {
  return run(path.join(path.dirname(realpathSync(goCommand())), "gofmt"), args, { cwd: goModuleDir });
}
