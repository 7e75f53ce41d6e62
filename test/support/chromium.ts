/** Debian's Chromium, headless, driven by playwright-core: the browser tests' one way to start it. */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
// What this machine needs: no sandbox (root in a container), no GPU, no background traffic.
const CHROMIUM_ARGS = [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/** A failure here fails the suite with the reason: browser tests are never skipped silently. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium)`);
  try {
    // launch() gives every browser a fresh temporary profile (user data dir), removed on close.
    return await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
  } catch (error) {
    throw new Error(`Chromium at ${CHROMIUM} did not start with ${CHROMIUM_ARGS.join(" ")}: ${(error as Error).message}`);
  }
}
