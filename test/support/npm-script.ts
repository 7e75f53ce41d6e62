import { readFileSync } from "node:fs";
import path from "node:path";

/** An npm script's command line, split into the command and its arguments, as `npm run` would start it. */
export function npmScriptCommand(root: string, script: string): [string, ...string[]] {
  const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const line = scripts[script];
  if (!line) throw new Error(`package.json has no script ${script}`);
  return line.trim().split(/\s+/) as [string, ...string[]];
}
