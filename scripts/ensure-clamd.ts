/**
 * The malware scan's tests and the development stack run Debian's clamd (clamav-daemon), never a
 * downloaded build. Installs it with apt-get when missing and allowed (root on Debian); otherwise
 * says how.
 */
import { ensureClamd } from "../src/stack/clamd.js";

try {
  process.stdout.write(`clamd: ${ensureClamd((line) => process.stdout.write(`${line}\n`))}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
