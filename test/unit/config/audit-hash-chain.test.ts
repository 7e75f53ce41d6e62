/**
 * AUDIT_HASH_CHAIN: the benchmark's switch to measure the audit hash chain against the same stack
 * without it. On unless turned off, off only in development mode, and off reaches PostgreSQL as
 * the session setting the seal trigger reads.
 */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.js";
import { parseConfig } from "../../../src/config/config.js";
import type { Env } from "../../../src/config/env.js";
import { UnflushedCommits } from "../../../src/adapters/postgres/audited-commit.js";
import { ormOptions } from "../../../src/adapters/postgres/orm.js";
import { SAFE_MODE_ENV } from "../../support/config-env.js";

const development: Env = { ...SAFE_MODE_ENV, DEVELOPMENT_MODE: "true" };

function refusal(env: Env): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

/** The startup options of the API's and worker's database connections, as openDatabase opens them. */
const connectionOptions = (env: Env) => {
  const config = parseConfig(env);
  const unflushed = config.database.auditHashChain ? new UnflushedCommits() : undefined;
  const connection = ormOptions(config.databaseUrl, config.database.poolMax, config.database, unflushed).driverOptions as { connection: { options?: string } };
  return connection.connection.options;
};

describe("AUDIT_HASH_CHAIN", () => {
  it("is on by default, in either mode, and the sessions promise to wait for the flush of commits the seal answers before it", () => {
    expect(parseConfig(SAFE_MODE_ENV).database.auditHashChain).toBe(true);
    expect(parseConfig(development).database.auditHashChain).toBe(true);
    expect(connectionOptions(development)).toBe("-c files.audit_commit=flush-after -c client_min_messages=notice");
  });

  it("takes on and off, in any case", () => {
    expect(parseConfig({ ...development, AUDIT_HASH_CHAIN: " ON " }).database.auditHashChain).toBe(true);
    expect(parseConfig({ ...development, AUDIT_HASH_CHAIN: "Off" }).database.auditHashChain).toBe(false);
  });

  it("off sets files.audit_chain = off on every API and worker session, which the seal trigger skips", () => {
    expect(connectionOptions({ ...development, AUDIT_HASH_CHAIN: "off" })).toBe("-c files.audit_chain=off");
  });

  it("refuses off without DEVELOPMENT_MODE=true", () => {
    expect(refusal({ ...SAFE_MODE_ENV, AUDIT_HASH_CHAIN: "off" }).message).toBe(
      "AUDIT_HASH_CHAIN: off is refused without DEVELOPMENT_MODE=true (it is a benchmark's switch)",
    );
  });

  it("refuses anything else, naming the variable", () => {
    expect(refusal({ ...development, AUDIT_HASH_CHAIN: "false" }).variable).toBe("AUDIT_HASH_CHAIN");
  });
});
