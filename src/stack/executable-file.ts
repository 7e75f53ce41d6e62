import { accessSync, constants, statSync } from "node:fs";

/** A regular file this process may execute: a built tool, or `go` where its installer puts it. */
export function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
