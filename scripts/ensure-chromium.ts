/**
 * The browser tests drive Debian's Chromium through playwright-core (never a downloaded browser
 * build). Installs it with apt-get when missing and allowed (root on Debian); otherwise says how.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";

if (!existsSync(CHROMIUM)) {
  const root = process.getuid?.() === 0;
  if (!root || !existsSync("/usr/bin/apt-get")) {
    process.stderr.write(`Chromium is needed for the browser tests: install Debian's package (sudo apt-get install chromium)\n`);
    process.exit(1);
  }
  process.stdout.write("installing Debian's chromium for the browser tests (first run only)…\n");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}
