import { describe, expect, it } from "vitest";
import { png } from "../fixtures/files/index.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { reasonOf } from "../support/errors.js";
import { sql, withTemporal } from "../support/stack-access.js";
import { initiate } from "../support/uploads.js";

// The defaults: STORAGE_MAX_PENDING_UPLOADS_PER_TENANT and CUSTOM_FIELDS_MAX_DEFINITIONS_PER_ENTITY_TYPE.
const MAX_PENDING_UPLOADS = 1000;
const MAX_DEFINITIONS = 200;

const photo = (owner: string) => ({ objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: png(8, 8), ownerEntityId: owner });

/**
 * Fills the tenant's pending uploads up to `count` with rows alone (no workflow, no bucket object):
 * a thousand real initiates would start a thousand workflows that expire under every later test.
 * Their retention lies an hour ahead, so no sweep touches them while the test runs; removed after.
 */
async function seedPendingUploads(tenant: string, count: number): Promise<void> {
  await sql(
    `insert into stored_objects (id, tenant_id, storage_key, status, object_class, owner_entity_type, owner_entity_id, original_filename,
                                 content_type, file_size, is_current, retention_policy, retention_expires_at, workflow_id,
                                 storage_delete_pending, created_at, updated_at)
     select gen_random_uuid(), ?, 'seed/' || n, 'PENDING_UPLOAD', 'GENERAL_DOCUMENT', 'User', 'seed', 'seed.png', 'image/png', 1, false,
            'TEMP_UPLOAD_24H', now() + interval '1 hour', 'seed-' || n, false, now(), now()
       from generate_series(1, ?) n`,
    [tenant, count],
  );
}

describe("the pending-upload quota per tenant", () => {
  it("refuses the initiate past the limit with RESOURCE_EXHAUSTED / PENDING_UPLOAD_LIMIT_REACHED, leaving no row and no workflow", { timeout: 60_000 }, async () => {
    const tenant = uniqueTenant("quota-up");
    const token = await tokenFor(tenant);
    await seedPendingUploads(tenant, MAX_PENDING_UPLOADS - 1);
    try {
      const last = await initiate(token, photo("last-place"));
      expect(last.status, JSON.stringify(last.body)).toBe(200);

      const over = await initiate(token, photo("over"));
      expect([over.status, over.body.code, reasonOf(over.body)]).toEqual([429, "resource_exhausted", "PENDING_UPLOAD_LIMIT_REACHED"]);
      expect(over.body.message).toContain(`at most ${MAX_PENDING_UPLOADS}`);
      expect(await sql("select id from stored_objects where tenant_id = ? and owner_entity_id = 'over'", [tenant])).toEqual([]);
      expect(await sql("select id from upload_sessions where tenant_id = ? and object_id not in (select id from stored_objects where tenant_id = ?)", [tenant, tenant])).toEqual([]);
      expect(await sql("select id from audit_entries where tenant_id = ? and object_id not in (select id from stored_objects where tenant_id = ?)", [tenant, tenant])).toEqual([]);
      // Only the accepted upload's workflow exists: the refused one's was deleted with its history.
      const workflows = await withTemporal(async (client) => {
        const ids: string[] = [];
        for await (const w of client.workflow.list({ query: `TenantId = "${tenant}"` })) ids.push(w.workflowId);
        return ids;
      });
      expect(workflows).toEqual([`object-${tenant}-${last.body.storedObject.id}`]);

      // Another tenant is not affected.
      const other = await initiate(await tokenFor(uniqueTenant("quota-up-other")), photo("other"));
      expect(other.status).toBe(200);
    } finally {
      await sql("delete from stored_objects where tenant_id = ? and owner_entity_id = 'seed'", [tenant]);
    }
  });
});

/** Field keys are `[a-z_]` only: a number written in letters (0 = a, 25 = z, 26 = ba). */
function letters(n: number): string {
  let text = "";
  do {
    text = String.fromCharCode(97 + (n % 26)) + text;
    n = Math.floor(n / 26);
  } while (n > 0);
  return text;
}

describe("the field-definition quota per tenant and entity type", () => {
  const create = (token: string, entityType: string, fieldKey: string) =>
    rest("POST", "/api/v1/custom-fields", { token, body: { entityType, fieldKey, fieldLabel: fieldKey, fieldType: "STRING" } });

  it("lets concurrent creates take exactly the places left, refuses the rest with RESOURCE_EXHAUSTED / FIELD_DEFINITION_LIMIT_REACHED; other entity types are not affected", { timeout: 120_000 }, async () => {
    const tenant = uniqueTenant("quota-cf");
    const token = await tokenFor(tenant);
    let firstId = "";
    for (let i = 0; i < MAX_DEFINITIONS - 3; i += 20) {
      const batch = Array.from({ length: Math.min(20, MAX_DEFINITIONS - 3 - i) }, (_, j) => create(token, "Customer", `f_${letters(i + j)}`));
      for (const res of await Promise.all(batch)) expect(res.status, JSON.stringify(res.body)).toBe(200);
      firstId ||= (await batch[0]).body.fieldDefinition.id;
    }
    // Three places left, ten creates at once: the count is taken under a lock, so exactly three win.
    const racing = await Promise.all(Array.from({ length: 10 }, (_, j) => create(token, "Customer", `race_${letters(j)}`)));
    expect(racing.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = racing.filter((r) => r.status !== 200);
    expect(refused.map((r) => [r.status, r.body.code, reasonOf(r.body)])).toEqual(refused.map(() => [429, "resource_exhausted", "FIELD_DEFINITION_LIMIT_REACHED"]));
    const [{ count }] = await sql<{ count: number }>(
      "select count(*)::int as count from custom_field_definitions where tenant_id = ? and entity_type = 'Customer' and deleted_at is null",
      [tenant],
    );
    expect(count).toBe(MAX_DEFINITIONS);

    expect((await create(token, "Product", "elsewhere")).status).toBe(200);
    // A place freed by a delete can be taken again.
    expect((await rest("DELETE", `/api/v1/custom-fields/${firstId}`, { token })).status).toBe(200);
    expect((await create(token, "Customer", "after_delete")).status).toBe(200);
  });
});
