/**
 * Go binaries this user has built, kept outside any clone: a second clone (a CI run on a fresh
 * clone, a worktree) copies them instead of linking the same versions again, minutes of CPU.
 * Only builds pinned to a version are kept; the key is the module and version they were built from.
 * `FILES_AND_FIELDS_TOOLS_CACHE` moves the cache; set it to `off` to build in every clone.
 */
import { copyFileSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { isExecutableFile } from "./executable-file.js";
import type { Log } from "./log-file.js";

export function toolsCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.FILES_AND_FIELDS_TOOLS_CACHE?.trim();
  if (configured === "off") return undefined;
  if (configured) return configured;
  return path.join(env.XDG_CACHE_HOME?.trim() || path.join(homedir(), ".cache"), "files-and-fields", "go-tools");
}

/** Where a build from `key` (`module/path@version`) is kept; none for an unpinned version. */
export function cachedToolPath(key: string, cacheDir = toolsCacheDir()): string | undefined {
  const at = key.lastIndexOf("@");
  const version = key.slice(at + 1);
  if (!cacheDir || at < 0 || !/^v\d/.test(version)) return undefined;
  // One folder per module and version (the module path's slashes become folders), the binary named
  // for its package.
  const segments = key.slice(0, at).split("/");
  return path.join(cacheDir, ...segments, version, segments.at(-1)!);
}

/** Copies the kept build of `key` to `target`; false when none is kept. */
export function restoreCachedTool(key: string, target: string): boolean {
  const kept = cachedToolPath(key);
  if (!kept || !isExecutableFile(kept)) return false;
  mkdirSync(path.dirname(target), { recursive: true });
  copyAtomically(kept, target);
  return true;
}

/** Keeps a copy of `built` for other clones; a cache that cannot be written only costs a rebuild. */
export function cacheBuiltTool(key: string, built: string, log: Log): string {
  const kept = cachedToolPath(key);
  if (!kept) return built;
  try {
    mkdirSync(path.dirname(kept), { recursive: true });
    copyAtomically(built, kept);
  } catch (error) {
    log(`could not keep ${built} in ${path.dirname(kept)} for other clones: ${(error as Error).message}`);
  }
  return built;
}

/** Through a temporary name, so that a reader never runs a half-copied binary. */
function copyAtomically(from: string, to: string): void {
  const temporary = `${to}.${process.pid}.tmp`;
  try {
    copyFileSync(from, temporary);
    renameSync(temporary, to);
  } finally {
    rmSync(temporary, { force: true });
  }
}

