/** Builds the `temporal`, `minio` and `grpcurl` binaries into .tools/bin unless they are on PATH already. */
import { ensureBinary } from "../src/stack/go-binaries.js";

const log = (line: string) => process.stdout.write(`${line}\n`);
for (const name of ["temporal", "minio", "grpcurl"] as const) {
  const path = await ensureBinary(name, { projectRoot: process.cwd(), log });
  log(`${name}: ${path}`);
}
