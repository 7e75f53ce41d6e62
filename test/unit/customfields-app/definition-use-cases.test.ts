import { describe, expect, it } from "vitest";
import { createDefinition } from "../../../src/app/customfields/create-definition.js";
import { deleteDefinition } from "../../../src/app/customfields/delete-definition.js";
import { generationKey } from "../../../src/app/customfields/definition-cache.js";
import { listDefinitions } from "../../../src/app/customfields/list-definitions.js";
import { resolveValues } from "../../../src/app/customfields/resolve-values.js";
import { updateDefinition } from "../../../src/app/customfields/update-definition.js";
import { AppError } from "../../../src/domain/errors.js";
import { actor, createInput, fakeDeps } from "./fakes.js";

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe("createDefinition", () => {
  it("stores UPPER_SNAKE from either input casing, at version 1, audited with the whole definition", async () => {
    const { deps, store } = fakeDeps();
    const def = await createDefinition(deps, actor, createInput("score", { fieldType: "NUMBER", defaultStrategy: "rule-based", defaultRules: [{ name: "r", priority: 1, when: { operator: "AND", conditions: [] }, then: { defaultValue: 3 } }] }));
    expect(def).toMatchObject({ fieldType: "NUMBER", defaultStrategy: "RULE_BASED", version: 1, tenantId: "tenant-a" });
    expect(store.audits).toEqual([expect.objectContaining({ action: "CREATED", oldVersion: null, newVersion: 1, actor, changes: { new: def } })]);
  });

  it("reports every schema violation at once, one per field", async () => {
    const { deps, store } = fakeDeps();
    const error = await failure(
      createDefinition(deps, actor, createInput("Bad-Key", { fieldType: "select", defaultStrategy: "COMPUTED", fieldLabel: "" })),
    );
    expect(error.violations.map((v) => v.field).sort()).toEqual(["computedFormula", "fieldKey", "fieldLabel", "uiConfig.options"]);
    expect(store.rows.size).toBe(0);
  });

  it("refuses an enum in a mixed casing and names the field", async () => {
    const { deps } = fakeDeps();
    const error = await failure(createDefinition(deps, actor, createInput("a", { fieldType: "Number" })));
    expect(error.violations).toEqual([expect.objectContaining({ field: "fieldType" })]);
  });

  it("bumps the cache generation and stores an indexed field marked indexed (the worker builds its index)", async () => {
    const { deps, kv, store } = fakeDeps();
    const created = await createDefinition(deps, actor, createInput("amount", { fieldType: "number", indexed: true }));
    expect(await kv.get(generationKey("tenant-a", "Customer"))).toBe("2");
    expect(store.rows.get(created.id)?.indexed).toBe(true);
  });
});

describe("updateDefinition", () => {
  it("increments the version and audits only what changed, with old and new version", async () => {
    const { deps, store } = fakeDeps();
    const created = await createDefinition(deps, actor, createInput("tier", { description: "old" }));
    const updated = await updateDefinition(deps, actor, { id: created.id, fields: { fieldLabel: "Tier", description: undefined, isRequired: false } });
    expect(updated.version).toBe(2);
    expect(updated.fieldLabel).toBe("Tier");
    expect(updated.description).toBeUndefined();
    expect(store.audits.at(-1)).toMatchObject({
      action: "UPDATED",
      oldVersion: 1,
      newVersion: 2,
      changes: { fieldLabel: { old: "tier", new: "Tier" }, description: { old: "old", new: null } },
    });
    expect(Object.keys(store.audits.at(-1)!.changes)).toHaveLength(2);
  });

  it("answers VERSION_CONFLICT for a stale expectedVersion and changes nothing", async () => {
    const { deps, store } = fakeDeps();
    const created = await createDefinition(deps, actor, createInput("tier"));
    await updateDefinition(deps, actor, { id: created.id, fields: { fieldLabel: "v2" } });
    const error = await failure(updateDefinition(deps, actor, { id: created.id, expectedVersion: 1, fields: { fieldLabel: "lost" } }));
    expect(error.reason).toBe("VERSION_CONFLICT");
    expect(store.rows.get(created.id)).toMatchObject({ fieldLabel: "v2", version: 2 });
    expect(store.audits).toHaveLength(2);
  });

  it("answers VERSION_CONFLICT when another write lands between the read and the conditional write", async () => {
    const { deps, store } = fakeDeps();
    const created = await createDefinition(deps, actor, createInput("tier"));
    store.beforeWrite = () => {
      store.beforeWrite = undefined;
      store.rows.set(created.id, { ...store.rows.get(created.id)!, fieldLabel: "theirs", version: 2 });
    };
    const error = await failure(updateDefinition(deps, actor, { id: created.id, expectedVersion: 1, fields: { fieldLabel: "mine" } }));
    expect(error.reason).toBe("VERSION_CONFLICT");
    expect(store.rows.get(created.id)?.fieldLabel).toBe("theirs");
  });

  it("retries on the new state when no expectedVersion was sent", async () => {
    const { deps, store } = fakeDeps();
    const created = await createDefinition(deps, actor, createInput("tier"));
    store.beforeWrite = () => {
      store.beforeWrite = undefined;
      store.rows.set(created.id, { ...store.rows.get(created.id)!, description: "theirs", version: 2 });
    };
    const updated = await updateDefinition(deps, actor, { id: created.id, fields: { fieldLabel: "mine" } });
    expect(updated).toMatchObject({ fieldLabel: "mine", description: "theirs", version: 3 });
  });

  it("refuses a changed fieldKey or entityType, but accepts them unchanged", async () => {
    const { deps } = fakeDeps();
    const created = await createDefinition(deps, actor, createInput("tier"));
    const error = await failure(updateDefinition(deps, actor, { id: created.id, fieldKey: "level", entityType: "Product", fields: {} }));
    expect(error.reason).toBe("FIELD_KEY_IMMUTABLE");
    expect(error.violations.map((v) => v.field)).toEqual(["entityType", "fieldKey"]);
    const same = await updateDefinition(deps, actor, { id: created.id, fieldKey: "tier", entityType: "Customer", fields: { fieldLabel: "x" } });
    expect(same.version).toBe(2);
  });

  it("refuses a formula cycle with a sibling", async () => {
    const { deps } = fakeDeps();
    await createDefinition(deps, actor, createInput("a", { fieldType: "computed", computedFormula: "b + 1" }));
    const b = await createDefinition(deps, actor, createInput("b", { fieldType: "number" }));
    const error = await failure(updateDefinition(deps, actor, { id: b.id, fields: { fieldType: "COMPUTED", computedFormula: "a * 2" } }));
    expect(error.reason).toBe("FORMULA_CYCLE");
  });

  it("treats another tenant's definition as not found", async () => {
    const { deps } = fakeDeps();
    const created = await createDefinition(deps, actor, createInput("tier"));
    const error = await failure(updateDefinition(deps, { ...actor, tenantId: "tenant-b" }, { id: created.id, fields: {} }));
    expect(error.reason).toBe("FIELD_DEFINITION_NOT_FOUND");
  });
});

describe("deleteDefinition", () => {
  it("sets deletedAt and isActive=false at version + 1, audited; the key may be defined again", async () => {
    const { deps, store } = fakeDeps();
    const created = await createDefinition(deps, actor, createInput("tier"));
    await deleteDefinition(deps, actor, created.id);
    expect(store.rows.get(created.id)).toMatchObject({ isActive: false, version: 2, deletedAt: expect.any(Date) });
    expect(store.audits.at(-1)).toMatchObject({ action: "DELETED", oldVersion: 1, newVersion: 2 });
    expect(await listDefinitions(deps, actor, "Customer")).toEqual([]);
    await createDefinition(deps, actor, createInput("tier"));
  });
});

describe("resolveValues context", () => {
  it("lets the caller add keys but never replace the user or the time", async () => {
    const { deps } = fakeDeps();
    await createDefinition(deps, actor, createInput("who", { fieldType: "computed", computedFormula: "user.id" }));
    await createDefinition(deps, actor, createInput("region", { fieldType: "computed", computedFormula: "organization.region" }));
    const values = await resolveValues(deps, actor, {
      entityType: "Customer",
      customFields: {},
      context: { user: { id: "forged" }, organization: { region: "EU" } },
    });
    expect(values).toEqual({ who: "user-7", region: "EU" });
  });
});
