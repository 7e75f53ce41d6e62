/**
 * Audit entries generated in SQL for the audit groups: entry g of a tenant occurred at
 * 2024-01-01 + g seconds; 1 in 100 a FAILURE, 1,000 actors, an owner per 20 entries, a request
 * per 3 entries, six actions and six classes in turn.
 *
 * The seal trigger (migration 0012) runs for each row at the commit of its statement (an UPDATE
 * of the row under the tenant's chain lock): loads insert LOAD_BATCH entries per statement, each
 * its own transaction, so that no transaction holds a million pending seals and the lock for long.
 */
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { progress } from "./support.js";

export const LOAD_BATCH = 1000;

const ACTIONS = ["UPLOAD_INITIATED", "UPLOAD_COMPLETED", "SCAN_PASSED", "DOWNLOAD_URL_ISSUED", "OBJECT_DELETED", "HOLD_PLACED"];
const CLASSES = ["GENERAL_DOCUMENT", "LOAN_DOCUMENT", "KYC_IDENTITY_DOCUMENT", "STATEMENT", "REPORT", "IMPORT_FILE"];
const list = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(", ")}]`;

/** Entries `from`..`to` (inclusive) of `tenant`, in one statement. */
export async function insertGeneratedEntries(em: EntityManager, tenant: string, from: number, to: number): Promise<void> {
  await em.execute(
    `insert into audit_entries (id, tenant_id, object_id, action, actor_id, request_id, correlation_id, result, details, occurred_at,
                                object_class, owner_type, owner_id, webhooks_dispatched_at)
     select gen_random_uuid(), ?, gen_random_uuid(), (${list(ACTIONS)})[1 + g % ${ACTIONS.length}],
            'user-' || (g % 1000), 'req-' || (g / 3), 'req-' || (g / 3),
            case when g % 100 = 0 then 'FAILURE' else 'SUCCESS' end, null,
            timestamptz '2024-01-01' + g * interval '1 second',
            (${list(CLASSES)})[1 + g % ${CLASSES.length}], 'Case', 'case-' || (g / 20), now()
       from generate_series(?::bigint, ?::bigint) g`,
    [tenant, from, to],
  );
}

/** `count` entries of `tenant`, LOAD_BATCH per statement, with progress every million. */
export async function loadGeneratedEntries(orm: MikroORM, tenant: string, count: number, label: string): Promise<void> {
  const em = orm.em.fork();
  for (let from = 1; from <= count; from += LOAD_BATCH) {
    if (from % 1_000_000 === 1) progress(`${label}: loading entries ${from.toLocaleString("en-US")}-${Math.min(count, from + 999_999).toLocaleString("en-US")}`);
    await insertGeneratedEntries(em, tenant, from, Math.min(count, from + LOAD_BATCH - 1));
  }
}
