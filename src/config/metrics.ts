/** The listener of /metrics and the detailed /readyz: apart from the API port, loopback by default. */
import type { Env } from "./env.js";
import { integer, optional } from "./env-values.js";

export interface MetricsConfig {
  host: string;
  /** 0: any free port (logged at start). */
  port: number;
}

export function parseMetrics(env: Env): MetricsConfig {
  return { host: optional(env, "METRICS_HOST") ?? "127.0.0.1", port: integer(env, "METRICS_PORT", 9464, 0) };
}
