/** PostgreSQL: no statement or forgotten transaction holds a pooled connection for long. */
import { parseAuditHashChain } from "./audit-hash-chain.js";
import type { Env } from "./env.js";
import { integer } from "./env-values.js";

export interface DatabaseLimitsConfig {
  statementTimeoutSeconds: number;
  idleInTransactionTimeoutSeconds: number;
  /** Connections per process (API or worker): replicas × this must stay under the server's max_connections. */
  poolMax: number;
  /** AUDIT_HASH_CHAIN: off only for the benchmark (src/config/audit-hash-chain.ts); a session setting of both pools. */
  auditHashChain: boolean;
}

export function parseDatabaseLimits(env: Env, developmentMode: boolean): DatabaseLimitsConfig {
  return {
    statementTimeoutSeconds: integer(env, "DATABASE_STATEMENT_TIMEOUT_SECONDS", 30),
    idleInTransactionTimeoutSeconds: integer(env, "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS", 60),
    poolMax: integer(env, "DATABASE_POOL_MAX", 10),
    auditHashChain: parseAuditHashChain(env, developmentMode),
  };
}
