/**
 * TCP ports on loopback: whether one is free, and picking a free one.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

export const LOOPBACK = "127.0.0.1";

/** Whether nothing listens on `port` (binding fails too when a server holds 0.0.0.0 or [::]). */
export function isPortFree(port: number, host = LOOPBACK): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => {
      server.close(() => resolve(true));
    });
  });
}

function ephemeralPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no port assigned"))));
    });
  });
}

/**
 * Ports handed out by this process. The port is only reserved once the server binds it, so
 * parallel starts in one process could otherwise be handed the same port twice.
 */
const handedOut = new Set<number>();

/**
 * A free port chosen by the OS, never one in `avoid` (e.g. the stack's default ports, which lie
 * in the Linux ephemeral range and would make a later `npm start` fail) and never one this
 * process handed out before.
 */
export async function findFreePort(options: { host?: string; avoid?: Iterable<number> } = {}): Promise<number> {
  const avoid = new Set(options.avoid ?? []);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await ephemeralPort(options.host ?? LOOPBACK);
    if (avoid.has(port) || handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error("could not find a free TCP port on loopback");
}

/**
 * A free port in [low, below), for servers that cannot take the OS's ephemeral ports (on Linux
 * 32768 and up): Temporal stores its membership ports as a PostgreSQL smallint.
 */
export async function findFreePortBelow(below: number, low = 10_000): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (below - low));
    if (handedOut.has(port) || !(await isPortFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`could not find a free TCP port below ${below} on loopback`);
}

/** Where Linux starts handing out connections' local ports (net.ipv4.ip_local_port_range); 32768 where unknown. */
export function ephemeralRangeStart(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * A free port below the ephemeral range, for a service that may be stopped and started again on
 * it: an ephemeral port, free when chosen, can meanwhile become some connection's local port, and
 * the restart then fails with "address already in use" (a test stack's Temporal UI did).
 */
export function findFreeRestartablePort(): Promise<number> {
  return findFreePortBelow(ephemeralRangeStart());
}
