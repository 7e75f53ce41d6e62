/**
 * The queue across reloads (like Uppy's Golden Retriever): waiting entries and failures are kept
 * in a store (IndexedDB in a browser) with their files, a new queue restores them, and a failed
 * upload can be retried or removed, before or after a reload. A "reload" here is a second queue
 * over the same store, with uploads recreated by the page's own wiring.
 */
import { describe, expect, it } from "vitest";
import { indexedDbQueueStore, MemoryQueueStore, type UploadRecipe } from "../../../packages/client/src/browser-uploader/queue-store.js";
import { UploadQueue } from "../../../packages/client/src/browser-uploader/queue.js";
import { createUpload } from "../../../packages/client/src/browser-uploader/uploader.js";
import type { UploadFile } from "../../../packages/client/src/browser-uploader/types.js";
import { FakeApi, FakeClock, FakeNetwork, FakeTransfer, pngFile, settle, storedObject } from "./fakes.js";
import { FakeIndexedDb } from "./fake-indexeddb.js";

/** The page's wiring, as it would be built again after a reload; storage answers 503 while `down`. */
function page(online = true) {
  const clock = new FakeClock();
  const api = new FakeApi(clock);
  const transfer = new FakeTransfer();
  const network = new FakeNetwork(online);
  const storage = { down: false };
  transfer.respond = async () => (storage.down ? { status: 503, body: "" } : { status: 200, body: "" });
  const make = (file: UploadFile, recipe: UploadRecipe) =>
    createUpload(file, { ...recipe, api, transfer: transfer.transfer, clock, network, random: () => 0.5, retry: { maxAttempts: 1 } });
  const recipe = { objectClass: "USER_PROFILE_PHOTO", ownerEntityType: "User", ownerEntityId: "u1", contentType: "image/png", filename: "me.png" };
  return { api, network, storage, make, upload: (name = "me.png") => make(pngFile(1000, name), { ...recipe, filename: name }) };
}

let ids = 0;
const newId = () => `entry-${++ids}`;

describe("a persisted upload queue", () => {
  it("restoring after the page already added an upload (running by then) does not send it twice", async () => {
    const store = new MemoryQueueStore();
    const now = page(true);
    const queue = new UploadQueue({ store, network: now.network, newId });
    // The page restores once its token arrives; a quick user has added a file before that.
    const added = queue.add(now.upload("quick.png"));
    await queue.persisted();
    expect(queue.running.map((u) => u.filename)).toEqual(["quick.png"]);
    const restored = await queue.restore(now.make);
    expect(restored).toEqual([]);
    expect((await added).state).toBe("ready");
    expect(now.api.calls.filter((c) => c === "initiate")).toHaveLength(1);
    // A second restore neither duplicates a stored failure.
    expect(await queue.restore(now.make)).toEqual([]);
  });


  it("queues the uploads still waiting at a reload again, with their files, and forgets them once ready", async () => {
    const store = new MemoryQueueStore();
    const before = page(false);
    const first = new UploadQueue({ store, network: before.network, newId });
    void first.add(before.upload("a.png"));
    void first.add(before.upload("b.png"));
    await first.persisted();
    first.dispose();
    expect([...store.records.values()].map((r) => [r.state, r.file.name, r.recipe.filename])).toEqual([
      ["queued", "a.png", "a.png"],
      ["queued", "b.png", "b.png"],
    ]);

    const after = page(true);
    const second = new UploadQueue({ store, network: after.network, newId });
    const restored = await second.restore(after.make);
    const ended = await Promise.all(restored);
    expect(ended.map((u) => [u.filename, u.state, u.file.size])).toEqual([
      ["a.png", "ready", 1000],
      ["b.png", "ready", 1000],
    ]);
    await second.persisted();
    expect(store.records.size).toBe(0);
    expect(before.api.calls).toEqual([]);
  });

  it("keeps an upload that failed after its retries as failed; retry(id) sends it again, remove(id) forgets it", async () => {
    const store = new MemoryQueueStore();
    const wiring = page();
    const queue = new UploadQueue({ store, network: wiring.network, newId });
    wiring.storage.down = true;
    const [one, two] = await Promise.all([queue.add(wiring.upload("one.png")), queue.add(wiring.upload("two.png"))]);
    expect([one!.state, two!.state]).toEqual(["error", "error"]);
    expect(queue.failed.map((f) => [f.filename, f.error.reason])).toEqual([
      ["one.png", "UNAVAILABLE"],
      ["two.png", "UNAVAILABLE"],
    ]);
    await queue.persisted();
    expect([...store.records.values()].map((r) => [r.state, r.error?.reason])).toEqual([
      ["failed", "UNAVAILABLE"],
      ["failed", "UNAVAILABLE"],
    ]);

    wiring.storage.down = false;
    const [oneId, twoId] = queue.failed.map((f) => f.id);
    const retried = await queue.retry(oneId!);
    expect(retried?.state).toBe("ready");
    expect(retried).not.toBe(one);
    expect(queue.remove(twoId!)).toBe(true);
    expect(queue.retry("unknown")).toBeUndefined();
    expect(queue.failed).toEqual([]);
    await queue.persisted();
    expect(store.records.size).toBe(0);
  });

  it("restores failures from IndexedDB after a reload, to be retried or removed there", async () => {
    const indexedDb = new FakeIndexedDb();
    const before = page();
    before.storage.down = true;
    const first = new UploadQueue({ store: indexedDbQueueStore("uploads-test", indexedDb), network: before.network, newId });
    await Promise.all([first.add(before.upload("x.png")), first.add(before.upload("y.png"))]);
    await first.persisted();
    first.dispose();

    const after = page();
    const second = new UploadQueue({ store: indexedDbQueueStore("uploads-test", indexedDb), network: after.network, newId });
    expect(await second.restore(after.make)).toEqual([]);
    expect(second.failed.map((f) => [f.filename, f.error.reason])).toEqual([
      ["x.png", "UNAVAILABLE"],
      ["y.png", "UNAVAILABLE"],
    ]);
    const [x, y] = second.failed;
    after.api.handlers.getUpload = async () => storedObject("PENDING_UPLOAD");
    const retried = await second.retry(x!.id);
    expect([retried?.filename, retried?.state, retried?.file.size]).toEqual(["x.png", "ready", 1000]);
    // The failure goes on with the object of its first attempt: a new URL for it, no new object.
    expect(after.api.calls.slice(0, 2)).toEqual(["get", "refresh"]);
    second.remove(y!.id);
    await second.persisted();
    expect(indexedDb.databases.get("uploads-test")?.get("uploads")?.size).toBe(0);
    expect(indexedDb.opens).toBe(2);
  });

  it("a write to IndexedDB resolves once its transaction committed, not when its request answered", async () => {
    const indexedDb = new FakeIndexedDb();
    const store = indexedDbQueueStore("commits", indexedDb);
    await store.list();
    indexedDb.holdCommits = true;
    let written = false;
    const write = store.put({ id: "e1", addedAt: 1, file: pngFile(), recipe: { objectClass: "C", ownerEntityType: "T", ownerEntityId: "1", contentType: "image/png", filename: "me.png" }, state: "queued" });
    void write.then(() => (written = true));
    for (let i = 0; i < 5; i++) await settle();
    // The row is there (its request answered), but a page closed now would lose it.
    expect((await store.list()).map((record) => record.id)).toEqual(["e1"]);
    expect(written).toBe(false);
    indexedDb.release();
    await write;
  });

  it("goes on in memory and reports the error when the store cannot write", async () => {
    const indexedDb = new FakeIndexedDb();
    indexedDb.failWrites = true;
    const errors: unknown[] = [];
    const wiring = page();
    const queue = new UploadQueue({ store: indexedDbQueueStore("full-disk", indexedDb), network: wiring.network, onStoreError: (e) => errors.push(e), newId });
    expect((await queue.add(wiring.upload())).state).toBe("ready");
    await queue.persisted();
    expect(errors.length).toBeGreaterThan(0);
  });

  it("cancels and forgets a waiting entry on remove(id)", async () => {
    const store = new MemoryQueueStore();
    const wiring = page(false);
    const queue = new UploadQueue({ store, network: wiring.network, newId: () => "waiting" });
    const ended = queue.add(wiring.upload());
    expect(queue.remove("waiting")).toBe(true);
    expect((await ended).state).toBe("cancelled");
    await queue.persisted();
    expect(store.records.size).toBe(0);
  });
});
