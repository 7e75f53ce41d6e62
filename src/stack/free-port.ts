/**
 * TCP ports on loopback: whether one is free, and picking a free one.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { reservePort } from "./port-reservations.js";

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

/**
 * Ports handed out by this process: a port is only taken once its server binds it, so parallel
 * starts in one process could otherwise be handed the same port twice (where no reservation
 * folder can be written, this is all that keeps them apart).
 */
const handedOut = new Set<number>();

export interface PortChoice {
  host?: string;
  /** Never these (e.g. the stack's default ports, which a later `npm start` must find free). */
  avoid?: Iterable<number>;
  /** Where choices are reserved across processes (port-reservations.ts); this user's folder by default. */
  reservations?: string;
}

/**
 * A free port for a server that binds it later (a child process, a service stopped and started
 * again), chosen below the ephemeral range and never one this process handed out before. A port
 * the OS hands out for port 0 is free when chosen, but until the server binds it the kernel may
 * give it again to any other bind of port 0 or to a connection's local end: a test's API server
 * found its port taken by its own metrics listener (METRICS_PORT 0), and a restarted Temporal UI
 * by a connection. Below the range only another explicit choice can take it, and every choice is
 * reserved across this user's processes until the process that made it exits.
 */
export function findFreePort(options: PortChoice = {}): Promise<number> {
  return findFreePortBelow(ephemeralRangeStart(), 10_000, options);
}

/**
 * A free port in [low, below), for servers that cannot take the OS's ephemeral ports (on Linux
 * 32768 and up): Temporal stores its membership ports as a PostgreSQL smallint.
 */
export async function findFreePortBelow(below: number, low = 10_000, options: PortChoice = {}): Promise<number> {
  const avoid = new Set(options.avoid ?? []);
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (below - low));
    if (avoid.has(port) || handedOut.has(port) || !(await isPortFree(port, options.host))) continue;
    if (!reservePort(port, options.reservations)) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`could not find a free TCP port below ${below} on loopback`);
}

let rangeStart: number | undefined;

/** Where Linux starts handing out connections' local ports (net.ipv4.ip_local_port_range); 32768 where unknown. Read once per process. */
export function ephemeralRangeStart(): number {
  rangeStart ??= readRangeStart();
  return rangeStart;
}

function readRangeStart(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}
