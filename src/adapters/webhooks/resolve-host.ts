import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

export type ResolveHost = (hostname: string) => Promise<string[]>;

/**
 * Every address the system resolver gives for a host (as a connection would resolve it, hosts
 * file included); an IP literal is its own answer. A name that does not exist answers nothing;
 * other resolver failures (a DNS outage) are thrown.
 */
export const resolveHost: ResolveHost = async (hostname) => {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host)) return [host];
  try {
    const answers = await lookup(host, { all: true, verbatim: true });
    return answers.map((a) => a.address);
  } catch (error) {
    if (["ENOTFOUND", "ENODATA"].includes((error as NodeJS.ErrnoException).code ?? "")) return [];
    throw error;
  }
};
