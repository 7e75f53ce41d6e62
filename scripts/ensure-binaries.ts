/**
 * Builds the `temporal`, `minio`, `grpcurl`, `grpc-health-probe`, `connectconformance`, `protoc-gen-go` and
 * `protoc-gen-connect-go` binaries into .tools/bin, and the Temporal server,
 * its schema tool and UI server into .tools/<name>/bin (`npm run test:temporal-server`), unless
 * they are on PATH already.
 */
import { ensureBinary } from "../src/stack/go-binaries.js";
import { statusLine } from "../src/stack/status-line.js";

// On a terminal, build progress is one line rewritten in place; in CI, a line every 30 s at most.
const terminal = process.stdout.isTTY ? statusLine(process.stdout) : undefined;
const log = terminal?.log ?? ((line: string) => process.stdout.write(`${line}\n`));
for (const name of ["temporal", "minio", "grpcurl", "grpc-health-probe", "connectconformance", "protoc-gen-go", "protoc-gen-connect-go", "temporal-server", "temporal-sql-tool", "temporal-ui-server"] as const) {
  const path = await ensureBinary(name, { projectRoot: process.cwd(), log, status: terminal?.show });
  log(`${name}: ${path}`);
}
