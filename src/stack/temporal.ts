/**
 * Temporal's development server (`temporal server start-dev`): one process, SQLite file for
 * state, Web UI included.
 */
import { Connection } from "@temporalio/client";
import { SEARCH_ATTRIBUTES } from "../../workflows/search-attributes.js";
import type { Log } from "./log-file.js";
import { spawnLogged } from "./process.js";
import { waitUntilReady } from "./readiness.js";

export interface TemporalOptions {
  binary: string;
  dbFile: string;
  port: number;
  uiPort: number;
  logDir: string;
  log: Log;
  namespace?: string;
  /** Name → type (Keyword, Text, Int, Double, Bool, Datetime, KeywordList). */
  searchAttributes?: Record<string, string>;
  startTimeoutMs?: number;
}

export interface RunningTemporal {
  address: string;
  uiUrl: string;
  namespace: string;
  stop(): Promise<void>;
}

/** `KEYWORD_LIST` as the CLI spells it: `KeywordList`. */
function cliTypeName(type: string): string {
  return type
    .split("_")
    .map((word) => word[0] + word.slice(1).toLowerCase())
    .join("");
}

/** The custom search attributes the app's workflows set, with their types as the CLI spells them. */
export const REGISTERED_SEARCH_ATTRIBUTES: Record<string, string> = Object.fromEntries(SEARCH_ATTRIBUTES.map((key) => [key.name, cliTypeName(key.type)]));

export async function startTemporal(options: TemporalOptions): Promise<RunningTemporal> {
  const namespace = options.namespace ?? "default";
  const address = `127.0.0.1:${options.port}`;
  // start-dev registers the search attributes on every start; with the same types they are
  // accepted again on a reused --db-filename (checked), so no special second-start handling.
  const searchAttributes = Object.entries(options.searchAttributes ?? REGISTERED_SEARCH_ATTRIBUTES).flatMap(
    ([name, type]) => ["--search-attribute", `${name}=${type}`],
  );
  const child = spawnLogged({
    name: "temporal",
    command: options.binary,
    args: [
      "server",
      "start-dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(options.port),
      "--ui-port",
      String(options.uiPort),
      "--db-filename",
      options.dbFile,
      "--namespace",
      namespace,
      "--log-level",
      "warn",
      ...searchAttributes,
    ],
    logDir: options.logDir,
    log: options.log,
  });

  await waitUntilReady({
    what: "Temporal",
    child,
    timeoutMs: options.startTimeoutMs ?? 60_000,
    check: async () => {
      const connection = await Connection.connect({ address, connectTimeout: "2s" });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return true;
      } finally {
        await connection.close();
      }
    },
  });
  return { address, uiUrl: `http://127.0.0.1:${options.uiPort}`, namespace, stop: child.stop };
}
