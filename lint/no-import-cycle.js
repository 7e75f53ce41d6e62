// An ESLint rule: no file reaches itself through relative imports, type-only imports included.
// import-x/no-cycle skips type-only imports (it looks for cycles that break at run time); a circle
// of types is still two files that cannot be understood, moved or split one without the other.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";

/** Per file: its mtime and the files its relative imports name, read once per lint run. */
const importsOnDisk = new Map();

function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(fromFile), specifier);
  // Sources import with ".js" specifiers (NodeNext) that name ".ts" files.
  const candidates = [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, `${base}/index.ts`];
  return candidates.find((candidate) => candidate.endsWith(".ts") && existsSync(candidate) && statSync(candidate).isFile());
}

function importsOf(file) {
  const mtime = statSync(file).mtimeMs;
  const cached = importsOnDisk.get(file);
  if (cached?.mtime === mtime) return cached.imports;
  // preProcessFile lists every module specifier: imports and re-exports (type-only too), import().
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const imports = [...new Set(importedFiles.map(({ fileName }) => resolveImport(file, fileName)).filter(Boolean))];
  importsOnDisk.set(file, { mtime, imports });
  return imports;
}

/** The import path from `start` back to `file` (breadth first: the shortest), or undefined. */
function pathBack(start, file, visited) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of importsOf(current)) {
      if (next === file) {
        const path = [current];
        for (let at = cameFrom.get(current); at !== undefined; at = cameFrom.get(at)) path.unshift(at);
        return path;
      }
      if (visited.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, current);
      queue.push(next);
    }
  }
  // Nothing reached from here leads back: later imports of the same file need not look again.
  for (const seen of cameFrom.keys()) visited.add(seen);
  return undefined;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "Forbid import cycles between files, type-only imports included." },
    schema: [],
    messages: { cycle: "Import cycle (type-only imports count too): {{cycle}}. Move what both sides need into a file of its own." },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!file.endsWith(".ts")) return {};
    const visited = new Set([file]);
    const check = (node) => {
      if (node.source?.type !== "Literal" || typeof node.source.value !== "string") return;
      const target = resolveImport(file, node.source.value);
      if (!target || visited.has(target)) return;
      const path = pathBack(target, file, visited);
      if (!path) return;
      const cycle = [file, ...path, file].map((f) => relative(context.cwd, f)).join(" → ");
      context.report({ node, messageId: "cycle", data: { cycle } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
