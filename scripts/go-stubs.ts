/**
 * Generates the Go stubs of the contract (buf.gen.go.yaml) under `outputBase`: the project root
 * for the committed ones in clients/go/gen, a temporary directory to compare them with proto/.
 * buf finds the two plugins on PATH, so the folders they were built into go first.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { ensureBinary, type EnsureBinaryOptions } from "../src/stack/go-binaries.js";

export type GenerateResult = { ok: true } | { ok: false; output: string };

export async function generateGoStubs(outputBase: string, options: EnsureBinaryOptions): Promise<GenerateResult> {
  const plugins = await Promise.all((["protoc-gen-go", "protoc-gen-connect-go"] as const).map((name) => ensureBinary(name, options)));
  const buf = path.join(options.projectRoot, "node_modules", ".bin", "buf");
  const PATH = [...new Set(plugins.map((plugin) => path.dirname(plugin))), process.env.PATH ?? ""].join(path.delimiter);
  const args = ["generate", "--template", "buf.gen.go.yaml", "--output", outputBase];
  return new Promise((resolve) => {
    execFile(buf, args, { cwd: options.projectRoot, env: { ...process.env, PATH } }, (error, stdout, stderr) =>
      resolve(error ? { ok: false, output: `buf ${args.join(" ")}: ${error.message}\n${stdout}${stderr}` } : { ok: true }),
    );
  });
}
