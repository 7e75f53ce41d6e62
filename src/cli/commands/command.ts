import type { ParseArgsOptionsConfig } from "node:util";
import type { CliContext } from "../context.js";

export type OptionValues = Record<string, string | string[] | boolean | undefined>;

export interface Command {
  name: string;
  /** The arguments after the command name, for the help. */
  usage: string;
  summary: string;
  /** More of the help, printed by `<command> --help` after the usage. */
  notes?: string;
  /** Names of the arguments; a name ending in "?" may be left out. */
  positionals: string[];
  options: ParseArgsOptionsConfig;
  run(ctx: CliContext, args: string[], values: OptionValues): Promise<number>;
}
