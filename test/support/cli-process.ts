import { execFile } from "node:child_process";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A program run to its end: its exit code and output, never a rejection. */
export function runProcess(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: options.timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The CLI as an operator runs it: a separate process, configured by API_URL and TOKEN in `env`. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runProcess(process.execPath, ["--import", "tsx", "src/main/cli.ts", ...args], { env, timeoutMs: 60_000 });
}
