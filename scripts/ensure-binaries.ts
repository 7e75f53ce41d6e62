/**
 * Builds the `temporal`, `minio` and `grpcurl` binaries into .tools/bin, and the Temporal server,
 * its schema tool and UI server into .tools/<name>/bin (`npm run test:temporal-server`), unless
 * they are on PATH already.
 */
import { ensureBinary } from "../src/stack/go-binaries.js";

const log = (line: string) => process.stdout.write(`${line}\n`);
for (const name of ["temporal", "minio", "grpcurl", "temporal-server", "temporal-sql-tool", "temporal-ui-server"] as const) {
  const path = await ensureBinary(name, { projectRoot: process.cwd(), log });
  log(`${name}: ${path}`);
}
