import { defaultPayloadConverter, type Payload } from "@temporalio/common";
import { describe, expect, it } from "vitest";
import { lifecycleWorkflowId } from "../../src/domain/files/stored-object.js";
import { csv, exe, png } from "../fixtures/files/index.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { bucketHas, bucketObjectRemoved, deleteVersionDirect, sleep, sql, versionsOf, withTemporal } from "../support/stack-access.js";
import { auditActions, importFile, initiate, uploadThrough, waitForGone } from "../support/uploads.js";
import { OBJECT_STATUS } from "../../workflows/search-attributes.js";
import { TEST_RETENTION } from "./global-setup.js";

const seconds = (name: keyof typeof TEST_RETENTION) => Number(TEST_RETENTION[name]);
const photo = (owner: string, bytes = png(8, 8)) => ({ objectClass: "USER_PROFILE_PHOTO", contentType: "image/png", bytes, ownerEntityId: owner });

async function row(objectId: string) {
  const [found] = await sql<any>("select * from stored_objects where id = ?", [objectId]);
  return found;
}

/** The search attribute ObjectStatus of the workflow's last run, once that run has ended. */
async function endedAs(workflowId: string): Promise<string | undefined> {
  return withTemporal(async (client) => {
    const handle = client.workflow.getHandle(workflowId);
    await handle.result();
    return (await handle.describe()).typedSearchAttributes.get(OBJECT_STATUS);
  });
}


describe("retention policies expire at their deadline and not before", () => {
  it("TEMP_UPLOAD_24H: an abandoned upload is removed by its workflow's timer", { timeout: 60_000 }, async () => {
    const tenant = uniqueTenant();
    const token = await tokenFor(tenant);
    const started = await initiate(token, photo("abandoned"));
    const id = started.body.storedObject.id;
    await sleep(seconds("RETENTION_TEMP_UPLOAD_SECONDS") * 1000 - 3000);
    expect((await rest("GET", `/api/v1/uploads/${id}`, { token })).status).toBe(200);
    await waitForGone(token, id, 15_000);
    expect((await row(id)).delete_reason).toBe("EXPIRED");
    expect(await auditActions(id)).toEqual(["UPLOAD_INITIATED", "OBJECT_EXPIRED"]);
    // The trail stays readable through the API, and the expiry names the timer's workflow run.
    const audit = await rest("GET", `/api/v1/uploads/${id}/audit`, { token });
    expect(audit.status).toBe(200);
    const expired = audit.body.auditEntries.at(-1);
    expect(expired).toMatchObject({ action: "OBJECT_EXPIRED", actorId: "system", result: "SUCCESS" });
    expect(expired.correlationId).toMatch(new RegExp(`^workflow:${lifecycleWorkflowId(tenant, id)}/[0-9a-f-]{36}$`));
    expect(await endedAs(lifecycleWorkflowId(tenant, id))).toBe("EXPIRED");
  });

  it("FAILED_UPLOAD_7D: a rejected file and its bytes are removed", async () => {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, { ...photo("rejected", exe()) });
    expect(object.status).toBe("REJECTED");
    expect(object.retentionPolicy).toBe("FAILED_UPLOAD_7D");
    expect(await bucketHas(object.storageKey)).toBe(true);
    await waitForGone(token, object.id, 15_000);
    expect(await bucketObjectRemoved(object.storageKey)).toBe(true);
    expect((await auditActions(object.id)).at(-1)).toBe("OBJECT_EXPIRED");
  });

  it("IMPORT_ARTIFACT_90D: an import file is kept until its deadline, then removed", async () => {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, importFile());
    expect(object.retentionPolicy).toBe("IMPORT_ARTIFACT_90D");
    const deadline = new Date(object.retentionExpiresAt).getTime();
    await sleep(Math.max(0, deadline - Date.now() - 1500));
    expect((await rest("GET", `/api/v1/uploads/${object.id}`, { token })).status).toBe(200);
    await waitForGone(token, object.id, 15_000);
    const expiredAt = new Date((await row(object.id)).deleted_at).getTime();
    expect(expiredAt).toBeGreaterThanOrEqual(deadline);
  });

  it("PERMANENT and COMPLIANCE_ARCHIVE never get a deadline", async () => {
    const token = await tokenFor(uniqueTenant());
    const permanent = await uploadThrough(token, photo("permanent"));
    const archive = await uploadThrough(token, { objectClass: "REPORT", contentType: "text/csv", bytes: csv([["a"], ["b"]]) });
    expect(permanent.retentionPolicy).toBe("PERMANENT");
    expect(permanent.retentionExpiresAt).toBeUndefined();
    expect(archive.retentionPolicy).toBe("COMPLIANCE_ARCHIVE");
    expect(archive.retentionExpiresAt).toBeUndefined();
  });
});

describe("legal hold", () => {
  it("keeps a file past its deadline; release lets it go at once", async () => {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, importFile());
    await rest("POST", `/api/v1/uploads/${object.id}/legal-hold`, { token, body: { reason: "regulator request" } });
    await sleep(new Date(object.retentionExpiresAt).getTime() - Date.now() + 3000);
    const held = await rest("GET", `/api/v1/uploads/${object.id}`, { token });
    expect(held.status).toBe(200);
    expect(await bucketHas(object.storageKey)).toBe(true);
    expect((await rest("DELETE", `/api/v1/uploads/${object.id}/legal-hold`, { token })).status).toBe(200);
    await waitForGone(token, object.id, 10_000);
    expect(await auditActions(object.id)).toEqual(
      expect.arrayContaining(["HOLD_PLACED", "HOLD_RELEASED", "OBJECT_EXPIRED"]),
    );
  });
});

describe("legal hold on the bucket object (S3 Object Lock)", () => {
  it("refuses even a direct storage delete while held, and a hard delete leaves no version behind", async () => {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, { objectClass: "LOAN_DOCUMENT", contentType: "application/pdf", bytes: (await import("../fixtures/files/index.js")).pdf() });
    await rest("POST", `/api/v1/uploads/${object.id}/legal-hold`, { token, body: { reason: "court order" } });
    const [version] = await versionsOf(object.storageKey);
    const refused = await deleteVersionDirect(object.storageKey, version);
    expect(refused).toBeGreaterThanOrEqual(400);
    expect(await versionsOf(object.storageKey)).toEqual([version]);
    await rest("DELETE", `/api/v1/uploads/${object.id}/legal-hold`, { token });
    expect((await rest("DELETE", `/api/v1/uploads/${object.id}`, { token })).status).toBe(200);
    expect(await versionsOf(object.storageKey)).toEqual([]);
  });
});

describe("replacement of photos and logos", () => {
  it("supersedes the previous photo only when the new one is READY, and the superseded one expires", async () => {
    const token = await tokenFor(uniqueTenant());
    const first = await uploadThrough(token, photo("replaced"));
    expect(first.isCurrent).toBe(true);
    const second = await uploadThrough(token, photo("replaced", png(9, 9)));
    expect(second.isCurrent).toBe(true);
    const old = (await rest("GET", `/api/v1/uploads/${first.id}`, { token })).body.storedObject;
    expect(old.isCurrent).toBe(false);
    expect(old.retentionPolicy).toBe("SUPERSEDED_30D");
    await waitForGone(token, first.id, 15_000);
    expect((await rest("GET", `/api/v1/uploads/${second.id}`, { token })).body.storedObject.isCurrent).toBe(true);
  });

  it("survives a rejected new upload: the current photo stays current", async () => {
    const token = await tokenFor(uniqueTenant());
    const current = await uploadThrough(token, photo("kept"));
    const rejected = await uploadThrough(token, photo("kept", exe()));
    expect(rejected.status).toBe("REJECTED");
    expect(rejected.isCurrent).toBe(false);
    expect((await rest("GET", `/api/v1/uploads/${current.id}`, { token })).body.storedObject.isCurrent).toBe(true);
  });

  it("keeps exactly one current file when uploads race for one owner", async () => {
    const token = await tokenFor(uniqueTenant());
    await Promise.all([1, 2, 3, 4, 5].map((i) => uploadThrough(token, photo("racing", png(i, i)))));
    const list = await rest("GET", "/api/v1/uploads?ownerEntityType=User&ownerEntityId=racing&isCurrent=true", { token });
    expect(list.body.storedObjects).toHaveLength(1);
    const rows = await sql<{ id: string; is_current: boolean; ready_at: string; retention_policy: string }>(
      "select id, is_current, ready_at, retention_policy from stored_objects where owner_entity_id = 'racing' and tenant_id = ? order by ready_at desc",
      [list.body.storedObjects[0].storageKey.split("/")[1]],
    );
    expect(list.body.storedObjects[0].id, JSON.stringify(rows, null, 1)).toBe(rows[0].id);
  });

  it("restores a superseded photo; the file it displaces becomes superseded", async () => {
    const token = await tokenFor(uniqueTenant());
    const first = await uploadThrough(token, photo("restore"));
    const second = await uploadThrough(token, photo("restore", png(3, 3)));
    const restored = await rest("POST", `/api/v1/uploads/${first.id}/restore`, { token, body: {} });
    expect(restored.status).toBe(200);
    expect(restored.body.storedObject.isCurrent).toBe(true);
    expect(restored.body.storedObject.retentionPolicy).toBe("PERMANENT");
    const displaced = (await rest("GET", `/api/v1/uploads/${second.id}`, { token })).body.storedObject;
    expect(displaced.isCurrent).toBe(false);
    expect(displaced.retentionPolicy).toBe("SUPERSEDED_30D");
    expect((await rest("POST", `/api/v1/uploads/${second.id}/restore`, { token, body: {} })).status).toBe(200);
  });

  it("never replaces documents: several files of an owner stay current", async () => {
    const token = await tokenFor(uniqueTenant());
    const a = await uploadThrough(token, { objectClass: "KYC_IDENTITY_DOCUMENT", contentType: "image/png", bytes: png(2, 2), ownerEntityId: "docs" });
    const b = await uploadThrough(token, { objectClass: "KYC_IDENTITY_DOCUMENT", contentType: "image/png", bytes: png(3, 2), ownerEntityId: "docs" });
    const list = await rest("GET", "/api/v1/uploads?ownerEntityId=docs&isCurrent=true", { token });
    expect(list.body.storedObjects.map((o: any) => o.id).sort()).toEqual([a.id, b.id].sort());
  });
});

describe("the object's workflow in the operator's view", () => {
  it("each run says why it started: initiate, then what woke it; its steps say what they did", async () => {
    const tenant = uniqueTenant();
    const token = await tokenFor(tenant);
    const object = await uploadThrough(token, photo(`why-${Date.now()}`));
    const stepSummaries: string[] = [];
    const runs = await withTemporal(async (client) => {
      const workflowId = lifecycleWorkflowId(tenant, object.id);
      // Each wake-up below finds no run (the last one ended), so it starts one.
      await client.workflow.getHandle(workflowId).result();
      await rest("POST", `/api/v1/uploads/${object.id}/legal-hold`, { token, body: { reason: "audit" } });
      await client.workflow.getHandle(workflowId).result();
      await rest("DELETE", `/api/v1/uploads/${object.id}/legal-hold`, { token });
      await client.workflow.getHandle(workflowId).result();
      expect((await rest("DELETE", `/api/v1/uploads/${object.id}`, { token })).status).toBe(200);
      await client.workflow.getHandle(workflowId).result();
      for (;;) {
        const ids: string[] = [];
        for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) ids.push(run.runId);
        if (ids.length >= 4) {
          const described = await Promise.all(ids.map((runId) => client.workflow.getHandle(workflowId, runId).describe()));
          described.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
          const history = await client.workflow.getHandle(workflowId, described[0].runId).fetchHistory();
          stepSummaries.push(...(history.events ?? []).flatMap((e) => (e.userMetadata?.summary ? [defaultPayloadConverter.fromPayload<string>(e.userMetadata.summary as Payload)] : [])));
          return Promise.all(described.map((d) => d.staticSummary()));
        }
        await sleep(200);
      }
    });
    expect(runs).toEqual([
      "upload initiated: waits for complete until the abandoned-upload deadline",
      "legal hold placed",
      "legal hold released",
      "delete requested",
    ]);
    expect(await endedAs(lifecycleWorkflowId(tenant, object.id))).toBe("DELETED");
    // The first run's steps say what they did: complete's local activity, beside its row reads.
    expect(stepSummaries).toContain("complete: compare size and checksum; scan a small image or PDF at once");
  });
});
