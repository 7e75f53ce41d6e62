import type { MikroORM } from "@mikro-orm/postgresql";
import { planIndexSteps, wantedIndexes, type IndexStep, type ManagedIndex } from "./custom-field-indexes.js";

/** The node-postgres client knex hands out: what the builder uses of it. */
interface PgClient {
  query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  processID?: number;
}

export interface IndexBuilderLog {
  info(message: string, meta: Record<string, unknown>): void;
  warn(message: string, error: unknown): void;
}

export interface IndexBuilderOptions {
  /** Seconds between passes; also the first wait after a failed build, doubled per failure. */
  intervalSeconds: number;
}

/** Any constant: the session lock one builder of all replicas holds during a pass. */
const BUILDER_LOCK = 0x6366_6962;
/** The longest wait after failed builds: a build that keeps failing costs one attempt an hour. */
const MAX_RETRY_SECONDS = 3600;

/**
 * Builds and drops the expression indexes of `indexed` custom fields, off the request path: a save
 * only stores the definition, and this loop in the worker reconciles the indexes with the stored
 * definitions every `intervalSeconds`. One index at a time, and one builder across all replicas (a
 * session advisory lock; the others skip the pass), on a connection of its own, never the request
 * pool, with CREATE/DROP INDEX CONCURRENTLY so the table stays writable. Each pass decides from
 * persisted state only (planIndexSteps), so a pass cut short by a crash is simply done again: the
 * INVALID index a killed build leaves is dropped and built anew.
 */
export class CustomFieldIndexBuilder {
  private stopped = false;
  private wake: (() => void) | undefined;
  private building: PgClient | undefined;
  private loop: Promise<void> | undefined;

  /** `orm`: the builder's own, with a pool of 2 (the pass's connection, and one to cancel it at stop). */
  constructor(
    private readonly orm: MikroORM,
    private readonly options: IndexBuilderOptions,
    private readonly log: IndexBuilderLog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Cancels a build in progress (the next pass, here or on another replica, redoes it) and waits for the loop. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    const pid = this.building?.processID;
    if (pid !== undefined) {
      await this.orm.em.fork().execute("select pg_cancel_backend(?)", [pid]).catch((error: unknown) => this.log.warn("cancelling an index build failed", error));
    }
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.pass();
      } catch (error) {
        if (!this.stopped) this.log.warn("custom field index pass failed; retrying at the next interval", error);
      }
      await this.sleep(this.options.intervalSeconds * 1000);
    }
  }

  /** Ends early when stop() wakes it. */
  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** One reconciliation, when no other builder holds the lock. */
  async pass(): Promise<void> {
    const knex = this.orm.em.getConnection().getKnex();
    const client = (await knex.client.acquireConnection()) as PgClient;
    try {
      const [lock] = (await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [BUILDER_LOCK])).rows;
      if (!lock?.locked) return;
      try {
        await this.reconcile(client);
      } finally {
        await client.query("select pg_advisory_unlock($1)", [BUILDER_LOCK]);
      }
    } finally {
      await knex.client.releaseConnection(client);
    }
  }

  private async reconcile(client: PgClient): Promise<void> {
    const fields = await client.query<{ entityType: string; fieldKey: string; fieldType: string }>(
      `select distinct entity_type as "entityType", field_key as "fieldKey", field_type as "fieldType"
       from custom_field_definitions where indexed and deleted_at is null`,
    );
    const wanted = wantedIndexes(fields.rows.map((f) => ({ ...f, fieldType: f.fieldType as never })));
    await client.query(
      "insert into custom_field_indexes (index_name, table_name) select * from unnest($1::text[], $2::text[]) on conflict (index_name) do nothing",
      [wanted.map((w) => w.name), wanted.map((w) => w.table)],
    );
    const managed = await client.query<ManagedIndex>(
      `select m.index_name as name, i.indisvalid as valid, m.retry_at as "retryAt"
       from custom_field_indexes m left join pg_index i on i.indexrelid = to_regclass(m.index_name)`,
    );
    for (const step of planIndexSteps(wanted, managed.rows, this.now())) {
      if (this.stopped) return;
      await this.apply(client, step);
    }
  }

  /** One step; a failed build is recorded with its next attempt and does not stop the others. */
  private async apply(client: PgClient, step: IndexStep): Promise<void> {
    const started = performance.now();
    this.building = client;
    try {
      if (step.kind === "drop" || step.dropInvalid) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${step.name}`);
      if (step.kind === "drop") {
        await client.query("delete from custom_field_indexes where index_name = $1", [step.name]);
      } else {
        await client.query(step.ddl);
        await client.query("update custom_field_indexes set failures = 0, retry_at = null, last_error = null, built_at = now() where index_name = $1", [step.name]);
      }
      this.log.info(step.kind === "drop" ? "custom field index dropped" : "custom field index built", { index: step.name, ms: Math.round(performance.now() - started) });
    } catch (error) {
      if (this.stopped) return;
      this.log.warn(`custom field index ${step.kind} of ${step.name} failed`, error);
      await client.query(
        `update custom_field_indexes set failures = failures + 1, last_error = left($3, 1000),
           retry_at = now() + make_interval(secs => least($2 * power(2, failures), $4))
         where index_name = $1`,
        [step.name, this.options.intervalSeconds, String((error as Error).message ?? error), MAX_RETRY_SECONDS],
      );
    } finally {
      this.building = undefined;
    }
  }
}
