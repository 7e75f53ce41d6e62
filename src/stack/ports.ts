/**
 * Which ports the embedded components listen on.
 *
 * 'defaults' (npm start / npm run stack): fixed ports, away from services that commonly run on a
 * developer machine (system PostgreSQL 5432, Redis 6379), each overridable with a STACK_*_PORT
 * variable. A taken default port is an error naming the port and the variables, not a silent
 * switch to another port: the printed addresses stay the same from run to run, and a taken port
 * most often means a stack is already running, which a second one should not hide.
 *
 * 'free' (tests): free ports below the ephemeral range (never a default port, so tests never
 * collide with a running `npm start` nor make a later one fail), so that a component a test stops
 * and starts again finds its port still free (free-port.ts, findFreePort).
 */
import { findFreePort, isPortFree, LOOPBACK } from "./free-port.js";

export type PortMode = "defaults" | "free";
export type PortName = "postgres" | "minio" | "minioConsole" | "temporal" | "temporalUi" | "redis" | "clamd";

interface PortSpec {
  port: number;
  what: string;
  /** Overrides the default port. */
  portVariable: string;
  /** Setting it makes the stack use an existing service instead. */
  useExisting: string;
}

export const DEFAULT_PORTS: Record<PortName, PortSpec> = {
  postgres: { port: 54329, what: "PostgreSQL", portVariable: "STACK_POSTGRES_PORT", useExisting: "DATABASE_URL" },
  minio: { port: 9000, what: "MinIO API", portVariable: "STACK_MINIO_PORT", useExisting: "STORAGE_ENDPOINT" },
  minioConsole: {
    port: 9001,
    what: "MinIO console",
    portVariable: "STACK_MINIO_CONSOLE_PORT",
    useExisting: "STORAGE_ENDPOINT",
  },
  temporal: { port: 7233, what: "Temporal gRPC", portVariable: "STACK_TEMPORAL_PORT", useExisting: "TEMPORAL_ADDRESS" },
  temporalUi: { port: 8233, what: "Temporal UI", portVariable: "STACK_TEMPORAL_UI_PORT", useExisting: "TEMPORAL_ADDRESS" },
  // Not 6379: a system Redis often holds that one.
  redis: { port: 63790, what: "Redis", portVariable: "STACK_REDIS_PORT", useExisting: "REDIS_URL" },
  // Not 3310: a system clamd often holds that one.
  clamd: { port: 33100, what: "clamd", portVariable: "STACK_CLAMD_PORT", useExisting: "CLAMD_ADDRESS" },
};

export class PortInUseError extends Error {
  constructor(readonly port: number, spec: PortSpec) {
    super(
      `port ${port} (${spec.what}) on ${LOOPBACK} is already in use — is a stack already running? ` +
        `Stop what uses it, set ${spec.portVariable} to another port, or set ${spec.useExisting} to use a running service.`,
    );
    this.name = "PortInUseError";
  }
}

/** Parses a STACK_*_PORT value; undefined when unset. */
export function portFromEnv(env: Record<string, string | undefined>, variable: string): number | undefined {
  const raw = env[variable]?.trim();
  if (raw === undefined || raw === "") return undefined;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new Error(`${variable}: must be a TCP port (1-65535), got "${raw}"`);
  }
  return port;
}

export async function resolvePort(
  name: PortName,
  mode: PortMode,
  env: Record<string, string | undefined>,
): Promise<number> {
  const spec = DEFAULT_PORTS[name];
  if (mode === "free") {
    // The default ports lie outside [10000, the ephemeral range), so none can be chosen.
    return findFreePort();
  }
  const port = portFromEnv(env, spec.portVariable) ?? spec.port;
  if (!(await isPortFree(port))) throw new PortInUseError(port, spec);
  return port;
}
