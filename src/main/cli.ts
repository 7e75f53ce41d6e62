/** `npm run cli -- <command> ...`: the operator's client of the API (see src/cli/run-cli.ts). */
import { runCli } from "../cli/run-cli.js";

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: { write: (text) => void process.stderr.write(text), isTTY: process.stderr.isTTY === true },
});
