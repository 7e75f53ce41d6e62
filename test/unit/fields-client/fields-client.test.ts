/**
 * The fields client over the in-memory API: what a sync stores, revalidation that answers
 * not_modified while nothing changed, invalidation by a change or a delete, evaluation from the
 * store with the network off, and the stores themselves.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CustomFieldsService } from "@files-and-fields/client/gen/customfields/v1/custom_fields_service_pb.js";
import { OrganizationService } from "@files-and-fields/client/gen/customfields/v1/organization_service_pb.js";
import { AppError } from "../../../src/domain/errors.js";
import { fileStore } from "@files-and-fields/client/fields-client/file-store";
import { createFieldsClient, memoryStore, NotSyncedError, type FieldsStore } from "@files-and-fields/client/fields-client";
import { inMemoryApi, type InMemoryApi } from "../rpc/in-memory-api.js";
import { switchable } from "./switchable-transport.js";

let api: InMemoryApi;
let token: string;
beforeEach(async () => {
  api = inMemoryApi();
  token = await api.token("t1", { user: "alice" });
});

const tier = { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "string", defaultValue: "silver", displayOrder: 1 };
const score = { entityType: "Customer", fieldKey: "score", fieldLabel: "Score", fieldType: "number", validation: { max: 10 }, displayOrder: 2 };

async function define(body: Record<string, unknown>): Promise<string> {
  const res = await api.rest("POST", "/api/v1/custom-fields", { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.fieldDefinition.id as string;
}

function clientWith(store: FieldsStore = memoryStore()) {
  const transport = switchable(api.transport(token));
  const client = createFieldsClient({ transport, store, user: { id: "alice" }, namespace: "t1" });
  return { transport, client, store };
}

describe("sync", () => {
  it("stores the definitions, then revalidates with one call that answers not_modified while nothing changed", async () => {
    await define(tier);
    await define(score);
    const { transport, client, store } = clientWith();

    const first = await client.sync("Customer");
    expect(first).toMatchObject({ changed: true, offline: false });
    expect((await store.get("t1:Customer"))?.version).toBe(first.version);
    expect((await client.definitions("Customer")).map((d) => d.fieldKey)).toEqual(["tier", "score"]);

    const second = await client.sync("Customer");
    expect(second).toEqual({ version: first.version, changed: false, offline: false });
    expect(transport.calls).toBe(2);
  });

  it("answers not_modified with no definitions over the JSON API, and the definitions for another version", async () => {
    await define(tier);
    const full = await api.rest("GET", "/api/v1/custom-fields/Customer:sync", { token });
    expect(full.status).toBe(200);
    expect(full.body.definitions.map((d: { fieldKey: string }) => d.fieldKey)).toEqual(["tier"]);
    const again = await api.rest("GET", `/api/v1/custom-fields/Customer:sync?knownVersion=${encodeURIComponent(full.body.version)}`, { token });
    expect(again.body).toEqual({ version: full.body.version, notModified: true, definitions: [] });
    const stale = await api.rest("GET", "/api/v1/custom-fields/Customer:sync?knownVersion=0-0", { token });
    expect(stale.body.definitions).toHaveLength(1);
  });

  it("fetches anew after a definition changes, is deactivated or is deleted", async () => {
    const tierId = await define(tier);
    const scoreId = await define(score);
    const { client } = clientWith();
    const server = api.client(CustomFieldsService, token);
    const versions = [(await client.sync("Customer")).version];

    await server.updateFieldDefinition({ id: tierId, defaultValue: "gold" });
    const changed = await client.sync("Customer");
    expect(changed.changed).toBe(true);
    expect(await client.resolveForCreate("Customer", {})).toEqual({ tier: "gold" });
    versions.push(changed.version);

    await server.updateFieldDefinition({ id: tierId, isActive: false });
    versions.push((await client.sync("Customer")).version);
    expect(await client.resolveForCreate("Customer", { tier: "dropped" })).toEqual({});

    await server.deleteFieldDefinition({ id: scoreId });
    const deleted = await client.sync("Customer");
    expect(deleted.changed).toBe(true);
    versions.push(deleted.version);
    await expect(client.resolveForCreate("Customer", { score: 1 })).rejects.toMatchObject({ reason: "CUSTOM_FIELD_VALIDATION_FAILED" });
    expect(new Set(versions).size).toBe(4);
  });

  it("keeps tenants apart: another tenant's definitions have their own version", async () => {
    await define(tier);
    const other = await api.token("t2", { user: "bob" });
    const mine = await api.rest("GET", "/api/v1/custom-fields/Customer:sync", { token });
    const theirs = await api.rest("GET", "/api/v1/custom-fields/Customer:sync", { token: other });
    expect(theirs.body.definitions ?? []).toEqual([]);
    expect(theirs.body.version).not.toBe(mine.body.version);
  });
});

describe("offline", () => {
  it("evaluates defaults and validation from the store with the network off, without calling it", async () => {
    await define(tier);
    await define(score);
    const { transport, client } = clientWith();
    await client.sync("Customer");
    transport.offline = true;
    const callsBefore = transport.calls;

    expect(await client.resolveForCreate("Customer", { score: 3 })).toEqual({ tier: "silver", score: 3 });
    expect(await client.validateForUpdate("Customer", { score: "7" })).toEqual({ score: 7 });
    const refusal = await client.resolveForCreate("Customer", { score: 20 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).violations.map((v) => v.field)).toEqual(["customFields.score"]);
    expect(transport.calls).toBe(callsBefore);

    // A revalidation that cannot reach the server keeps the stored copy.
    expect(await client.sync("Customer")).toMatchObject({ changed: false, offline: true });
    expect(await client.resolveForCreate("Customer", {})).toEqual({ tier: "silver" });
  });

  it("explains a create offline as ExplainValuesForCreate does: values, checks and violations, without throwing", async () => {
    await define(tier);
    await define(score);
    const { transport, client } = clientWith();
    await client.sync("Customer");
    transport.offline = true;

    const explained = await client.explainForCreate("Customer", { score: 20 });
    expect(explained.customFields).toEqual({ tier: "silver" });
    expect(explained.fields.map((f) => [f.fieldKey, f.source, f.value, f.violation?.field])).toEqual([
      ["tier", "STATIC_DEFAULT", "silver", undefined],
      ["score", "USER", undefined, "customFields.score"],
    ]);
    const server = await api.rest("POST", "/api/v1/custom-fields/Customer:explain", { token, body: { customFields: { score: 20 } } });
    expect(server.status).toBe(200);
    expect(explained.violations).toEqual(server.body.violations);
    expect(explained.fields.map((f) => f.constraints)).toEqual(server.body.fields.map((f: { constraints: unknown }) => f.constraints));
  });

  it("survives a restart through its store, and says so when it never synced and cannot reach the server", async () => {
    await define(tier);
    const store = memoryStore();
    await clientWith(store).client.sync("Customer");

    const restarted = clientWith(store);
    restarted.transport.offline = true;
    expect(await restarted.client.resolveForCreate("Customer", {})).toEqual({ tier: "silver" });

    const empty = clientWith();
    empty.transport.offline = true;
    await expect(empty.client.resolveForCreate("Customer", {})).rejects.toBeInstanceOf(NotSyncedError);
  });
});

describe("organization and user", () => {
  it("evaluates with the synced organization profile and the user's claims, as the server does", async () => {
    await define({ entityType: "Customer", fieldKey: "company", fieldLabel: "Company", fieldType: "computed", computedFormula: "organization.companyAbbreviation" });
    await define({
      entityType: "Customer",
      fieldKey: "desk",
      fieldLabel: "Desk",
      fieldType: "string",
      defaultStrategy: "rule-based",
      defaultRules: [{ name: "admins", priority: 1, when: { operator: "AND", conditions: [{ field: "user.role", operator: "equals", value: "admin" }] }, then: { defaultValue: "back office" } }],
    });
    const admin = await api.token("t1", { user: "alice", profile: { role: "admin" } });
    const transport = switchable(api.transport(admin));
    const client = createFieldsClient({ transport, store: memoryStore(), user: { id: "alice", role: "admin" }, namespace: "t1" });
    const server = api.client(CustomFieldsService, admin);
    const callerOrganization = { organization: { companyAbbreviation: "CALLER" } };

    // No stored profile: the caller's organization key stands, on both sides.
    expect(await client.syncOrganization()).toMatchObject({ version: "0", offline: false });
    await client.sync("Customer");
    const before = await server.resolveValuesForCreate({ entityType: "Customer", context: callerOrganization });
    expect(before.customFields).toEqual({ company: "CALLER", desk: "back office" });
    expect(await client.resolveForCreate("Customer", {}, callerOrganization)).toEqual(before.customFields);

    await api.client(OrganizationService, admin).updateOrganizationProfile({ companyAbbreviation: "ACME" });
    expect(await client.syncOrganization()).toMatchObject({ changed: true });
    transport.offline = true;
    const after = await server.resolveValuesForCreate({ entityType: "Customer", context: callerOrganization });
    expect(after.customFields).toEqual({ company: "ACME", desk: "back office" });
    expect(await client.resolveForCreate("Customer", {}, callerOrganization)).toEqual(after.customFields);
  });
});

describe("file store", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "fields-client-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("round-trips entries through one JSON file, and a client on a new store instance evaluates from it offline", async () => {
    await define(tier);
    const path = join(dir, "nested", "definitions.json");
    await clientWith(fileStore(path)).client.sync("Customer");
    await fileStore(path).put("other:Customer", { version: "v", data: [], syncedAt: "2026-01-01T00:00:00.000Z" });

    const onDisk = JSON.parse(await readFile(path, "utf8")) as Record<string, { version: string }>;
    expect(Object.keys(onDisk).sort()).toEqual(["other:Customer", "t1:Customer"]);
    expect(await fileStore(path).get("missing")).toBeUndefined();

    const restarted = clientWith(fileStore(path));
    restarted.transport.offline = true;
    expect(await restarted.client.resolveForCreate("Customer", {})).toEqual({ tier: "silver" });
  });

  it("keeps every entry when puts run concurrently", async () => {
    const store = fileStore(join(dir, "d.json"));
    await Promise.all(["a", "b", "c", "d"].map((key) => store.put(key, { version: key, data: [], syncedAt: "" })));
    expect(await Promise.all(["a", "b", "c", "d"].map(async (key) => (await store.get(key))?.version))).toEqual(["a", "b", "c", "d"]);
  });
});
