/**
 * Whose offline entries are whose: the demo form's queue of creates belongs to the tenant and user
 * of the token they were made with and is sent only with a token of the same two; the fields
 * client's store needs a namespace, so no two callers share a default one.
 */
import { describe, expect, it } from "vitest";
import { createFieldsClient, memoryStore } from "@files-and-fields/client/fields-client";
import { ownerOfToken } from "../../../src/demo/queue-owner.js";
import { SubmitQueue, type QueuedSubmit, type SubmitRecords } from "../../../src/demo/submit-queue.js";
import { tokenFor } from "../../support/tokens.js";
import { switchable } from "./switchable-transport.js";
import { inMemoryApi } from "../rpc/in-memory-api.js";

/** The queue's records in memory, as IndexedDB keeps them: ids in the order of adding. */
function memoryRecords(): SubmitRecords & { entries: QueuedSubmit[] } {
  const entries: QueuedSubmit[] = [];
  return {
    entries,
    async add(entry) {
      const id = entries.length + 1;
      entries.push(structuredClone({ ...entry, id }));
      return id;
    },
    async all() {
      return structuredClone(entries);
    },
    async remove(id) {
      entries.splice(entries.findIndex((e) => e.id === id), 1);
    },
  };
}

const create = (owner: { tenant: string; user: string }): QueuedSubmit => ({
  ...owner,
  entityType: "Customer",
  standard: { name: "Ada" },
  customFields: { tier: "gold" },
  queuedAt: "2026-03-01T12:00:00.000Z",
});

describe("the offline queue of creates", () => {
  it("names a token's owner by its tid and sub", async () => {
    expect(ownerOfToken(await tokenFor("t1", { user: "alice" }))).toEqual({ tenant: "t1", user: "alice" });
    expect(ownerOfToken("not-a-token")).toBeUndefined();
    expect(ownerOfToken("a.%%%.c")).toBeUndefined();
  });

  it("never lists a create queued by one user for another user's token of the same tenant", async () => {
    const queue = new SubmitQueue(memoryRecords());
    const alice = ownerOfToken(await tokenFor("t1", { user: "alice" }))!;
    const bob = ownerOfToken(await tokenFor("t1", { user: "bob" }))!;
    await queue.add(create(alice));

    expect(await queue.list(bob)).toEqual([]);
    expect((await queue.list(alice)).map((e) => e.user)).toEqual(["alice"]);
  });

  it("never lists a create for the same user name in another tenant", async () => {
    const queue = new SubmitQueue(memoryRecords());
    await queue.add(create({ tenant: "t1", user: "alice" }));
    expect(await queue.list({ tenant: "t2", user: "alice" })).toEqual([]);
  });

  it("never lists an entry of an older page, which named only its tenant", async () => {
    const records = memoryRecords();
    const { user: _user, ...tenantOnly } = create({ tenant: "t1", user: "alice" });
    await records.add(tenantOnly as QueuedSubmit);
    expect(await new SubmitQueue(records).list({ tenant: "t1", user: "alice" })).toEqual([]);
  });
});

describe("the fields client's namespace", () => {
  const transport = switchable(inMemoryApi().transport());

  it.each([undefined, "", "  "])("is required: %j is refused", (namespace) => {
    const options = { transport, store: memoryStore(), user: { id: "alice" }, namespace } as Parameters<typeof createFieldsClient>[0];
    expect(() => createFieldsClient(options)).toThrow(/namespace.*required/);
  });
});
