/**
 * The operator's command line: `npm run cli -- <command> [arguments] [options]`. API calls go
 * through the typed Connect client (HTTP/1.1, so any proxy passes them); file bytes go straight
 * to the storage backend over the signed URLs, as browsers send them.
 */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import type { Writable } from "node:stream";
import { ConnectError } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { BadRequestSchema, ErrorInfoSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { createNodeClients } from "@files-and-fields/client/node";
import { auditCommand } from "./commands/audit.js";
import type { Command } from "./commands/command.js";
import { deleteCommand } from "./commands/delete.js";
import { downloadCommand } from "./commands/download.js";
import { getCommand } from "./commands/get.js";
import { listCommand } from "./commands/list.js";
import { uploadCommand } from "./commands/upload.js";
import { watchCommand } from "./commands/watch.js";
import { EXIT, UsageError, type CliContext } from "./context.js";
import { DevTokenRefused, signDevToken } from "./dev-token-from-env.js";
import type { ProgressSink } from "./progress.js";

const COMMANDS: Command[] = [uploadCommand, watchCommand, listCommand, getCommand, downloadCommand, deleteCommand, auditCommand];

const GLOBAL_OPTIONS = {
  api: { type: "string" },
  token: { type: "string" },
  tenant: { type: "string", default: "tenant-dev" },
  user: { type: "string", default: "user-dev" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} satisfies ParseArgsOptionsConfig;

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: Writable;
  stderr: ProgressSink;
}

function helpText(): string {
  const commands = COMMANDS.map((c) => `  ${c.name} ${c.usage}\n      ${c.summary}`).join("\n");
  return `usage: npm run cli -- <command> [arguments] [options]

${commands}

options of every command:
  --api URL        the API (default: $API_URL or http://127.0.0.1:8080)
  --token JWT      bearer token (default: $TOKEN; else a development token as npm run token
                   signs it, for --tenant (tenant-dev) and --user (user-dev))
  --json           print results as JSON
exit codes: 0 done, 1 failed, 2 bad command line, 3 file rejected by the scan
`;
}

async function tokenFor(values: { token?: string; tenant: string; user: string }, env: NodeJS.ProcessEnv): Promise<string> {
  const given = values.token ?? env.TOKEN;
  if (given) return given;
  try {
    return await signDevToken({ tenant: values.tenant, user: values.user }, env);
  } catch (error) {
    if (error instanceof DevTokenRefused) throw new UsageError("no token: pass --token or set TOKEN");
    throw error;
  }
}

const isParseArgsError = (error: unknown) => error instanceof TypeError && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS");

/** What went wrong, with the stable reason and the fields at fault when the API gave them. */
export function describeError(error: unknown, apiUrl: string): string[] {
  if (!(error instanceof ConnectError)) return [`error: ${error instanceof Error ? error.message : String(error)}`];
  const lines = [`error: ${codeToString(error.code)}: ${error.rawMessage}`];
  const reason = error.findDetails(ErrorInfoSchema)[0]?.reason;
  if (reason) lines.push(`reason: ${reason}`);
  for (const violation of error.findDetails(BadRequestSchema).flatMap((d) => d.fieldViolations)) {
    lines.push(`  ${violation.field}: ${violation.description}`);
  }
  if (codeToString(error.code) === "unavailable") lines.push(`is the API running at ${apiUrl}?`);
  return lines;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`${line}\n`);
  const command = COMMANDS.find((c) => c.name === argv[0]);
  if (!command) {
    if (argv[0] && argv[0] !== "help" && argv[0] !== "--help" && argv[0] !== "-h") say(`unknown command "${argv[0]}"\n`);
    io.stderr.write(helpText());
    return argv[0] && !["help", "--help", "-h"].includes(argv[0]) ? EXIT.usage : EXIT.ok;
  }
  let apiUrl = io.env.API_URL || "http://127.0.0.1:8080";
  try {
    const { values, positionals } = parseArgs({
      args: argv.slice(1),
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      say(`usage: npm run cli -- ${command.name} ${command.usage}\n  ${command.summary}`);
      if (command.notes) say(`\n${command.notes}`);
      return EXIT.ok;
    }
    const required = command.positionals.filter((p) => !p.endsWith("?")).length;
    if (positionals.length < required || positionals.length > command.positionals.length) {
      const names = command.positionals.map((p) => (p.endsWith("?") ? `[${p.slice(0, -1)}]` : `<${p}>`));
      throw new UsageError(`expected ${names.join(" ") || "no arguments"}`);
    }
    apiUrl = (values.api as string | undefined) ?? apiUrl;
    const token = await tokenFor(values as { token?: string; tenant: string; user: string }, io.env);
    const ctx: CliContext = {
      clients: createNodeClients({ baseUrl: apiUrl, token, protocol: "connect" }),
      out: (line) => io.stdout.write(`${line}\n`),
      stdout: io.stdout,
      err: io.stderr,
      json: values.json === true,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
    return await command.run(ctx, positionals, values);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      say(`${command.name}: ${(error as Error).message}`);
      say(`usage: npm run cli -- ${command.name} ${command.usage}`);
      return EXIT.usage;
    }
    describeError(error, apiUrl).forEach(say);
    return EXIT.failed;
  }
}
