/**
 * The per-tenant cap on indexed fields (issue #11, "Unbounded index builds"): every indexed field
 * costs an index on the table all tenants share, so a write that would pass the cap is refused
 * with INDEXED_FIELD_LIMIT_REACHED and changes nothing. The tests allow 3.
 */
import { describe, expect, it } from "vitest";
import { createDefinition } from "../../../src/app/customfields/create-definition.js";
import { deleteDefinition } from "../../../src/app/customfields/delete-definition.js";
import { updateDefinition } from "../../../src/app/customfields/update-definition.js";
import { addsIndexedField, indexedFieldLimitError } from "../../../src/domain/customfields/indexed-field-limit.js";
import { AppError } from "../../../src/domain/errors.js";
import { actor, createInput, fakeDeps } from "./fakes.js";

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const indexedNumber = (key: string) => createInput(key, { fieldType: "number", indexed: true });

async function atTheLimit() {
  const fake = fakeDeps();
  fake.deps.maxIndexedFields = 3;
  const created = [];
  for (const key of ["one", "two", "three"]) created.push(await createDefinition(fake.deps, actor, indexedNumber(key)));
  return { ...fake, created };
}

describe("indexedFieldLimitError", () => {
  it("allows up to the limit and refuses one more, naming the field and the limit", () => {
    expect(indexedFieldLimitError(9, 10, "a")).toBeUndefined();
    const error = indexedFieldLimitError(10, 10, "amount");
    expect(error).toMatchObject({ reason: "INDEXED_FIELD_LIMIT_REACHED", metadata: { limit: "10", indexed: "10" } });
    expect(error?.violations).toEqual([expect.objectContaining({ field: "indexed" })]);
    expect(error?.message).toContain("amount");
  });

  it("only turning indexed on can pass the limit", () => {
    expect(addsIndexedField(undefined, { indexed: true })).toBe(true);
    expect(addsIndexedField({ indexed: false }, { indexed: true })).toBe(true);
    expect(addsIndexedField({ indexed: true }, { indexed: true })).toBe(false);
    expect(addsIndexedField({ indexed: true }, { indexed: false })).toBe(false);
    expect(addsIndexedField(undefined, { indexed: false })).toBe(false);
  });
});

describe("the indexed field cap in the use cases", () => {
  it("refuses a create past the cap and stores nothing", async () => {
    const { deps, store } = await atTheLimit();
    const error = await refusal(createDefinition(deps, actor, indexedNumber("four")));
    expect(error.reason).toBe("INDEXED_FIELD_LIMIT_REACHED");
    expect([...store.rows.values()].map((d) => d.fieldKey).sort()).toEqual(["one", "three", "two"]);
  });

  it("still accepts fields that are not indexed, and other tenants' indexed fields", async () => {
    const { deps } = await atTheLimit();
    await expect(createDefinition(deps, actor, createInput("plain", { fieldType: "number" }))).resolves.toMatchObject({ indexed: false });
    await expect(createDefinition(deps, { ...actor, tenantId: "tenant-b" }, indexedNumber("four"))).resolves.toMatchObject({ indexed: true });
  });

  it("refuses an update that turns indexed on past the cap, and leaves the version", async () => {
    const { deps, store } = await atTheLimit();
    const plain = await createDefinition(deps, actor, createInput("plain", { fieldType: "number" }));
    const error = await refusal(updateDefinition(deps, actor, { id: plain.id, fields: { indexed: true } }));
    expect(error.reason).toBe("INDEXED_FIELD_LIMIT_REACHED");
    expect(store.rows.get(plain.id)).toMatchObject({ indexed: false, version: 1 });
  });

  it("lets an already indexed field change other things at the cap", async () => {
    const { deps, created } = await atTheLimit();
    const updated = await updateDefinition(deps, actor, { id: created[0].id, fields: { fieldLabel: "One" } });
    expect(updated).toMatchObject({ fieldLabel: "One", indexed: true, version: 2 });
  });

  it("frees a slot when an indexed field is deleted or unmarked", async () => {
    const { deps, created } = await atTheLimit();
    await deleteDefinition(deps, actor, created[0].id);
    await createDefinition(deps, actor, indexedNumber("four"));
    await updateDefinition(deps, actor, { id: created[1].id, fields: { indexed: false } });
    await expect(createDefinition(deps, actor, indexedNumber("five"))).resolves.toMatchObject({ indexed: true });
    expect((await refusal(createDefinition(deps, actor, indexedNumber("six")))).reason).toBe("INDEXED_FIELD_LIMIT_REACHED");
  });
});
