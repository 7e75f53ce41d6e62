import { execFile } from "node:child_process";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI as an operator runs it: a separate process, configured by API_URL and TOKEN in `env`. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "src/main/cli.ts", ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
