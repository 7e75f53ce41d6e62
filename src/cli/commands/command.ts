import type { ParseArgsOptionsConfig } from "node:util";
import type { CliContext } from "../context.js";

export type OptionValues = Record<string, string | boolean | undefined>;

export interface Command {
  name: string;
  /** The arguments after the command name, for the help. */
  usage: string;
  summary: string;
  positionals: string[];
  options: ParseArgsOptionsConfig;
  run(ctx: CliContext, args: string[], values: OptionValues): Promise<number>;
}
