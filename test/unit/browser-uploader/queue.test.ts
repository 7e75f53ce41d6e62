import { describe, expect, it } from "vitest";
import { UploadQueue } from "../../../packages/client/src/browser-uploader/queue.js";
import { FakeNetwork, harness, hang, settle } from "./fakes.js";

/** An upload whose PUT waits until `release()`. */
function blockedUpload() {
  const h = harness();
  const releases: (() => void)[] = [];
  h.transfer.respond = () => new Promise((resolve) => releases.push(() => resolve({ status: 200, body: "" })));
  return { ...h, release: () => releases.shift()?.() };
}

describe("UploadQueue", () => {
  it("runs at most `concurrency` uploads at once and starts the next when one ends", async () => {
    const queue = new UploadQueue({ concurrency: 2, network: new FakeNetwork() });
    const uploads = [blockedUpload(), blockedUpload(), blockedUpload()];
    const done = uploads.map((u) => queue.add(u.upload));
    await settle();
    expect(uploads.map((u) => u.upload.state)).toEqual(["uploading", "uploading", "idle"]);
    expect(queue.running).toHaveLength(2);
    expect(queue.pending).toHaveLength(1);
    uploads[0]!.release();
    await done[0];
    await settle();
    expect(uploads[2]!.upload.state).toBe("uploading");
    uploads[1]!.release();
    uploads[2]!.release();
    expect((await Promise.all(done)).map((u) => u.state)).toEqual(["ready", "ready", "ready"]);
  });

  it("starts nothing while offline and resumes on the online event", async () => {
    const network = new FakeNetwork(false);
    const changes: boolean[] = [];
    const queue = new UploadQueue({ network, onChange: (q) => changes.push(q.paused) });
    const { upload, api } = harness();
    const done = queue.add(upload);
    await settle();
    expect(queue.paused).toBe(true);
    expect(upload.state).toBe("idle");
    expect(api.calls).toEqual([]);
    network.set(true);
    expect(await done).toBe(upload);
    expect(upload.state).toBe("ready");
    expect(changes).toContain(true);
    expect(changes.at(-1)).toBe(false);
  });

  it("pauses new starts when the network drops, running uploads go on", async () => {
    const network = new FakeNetwork();
    const queue = new UploadQueue({ concurrency: 1, network });
    const first = blockedUpload();
    const second = harness();
    const done = [queue.add(first.upload), queue.add(second.upload)];
    await settle();
    network.set(false);
    first.release();
    await done[0];
    await settle();
    expect(second.upload.state).toBe("idle");
    network.set(true);
    expect((await done[1]).state).toBe("ready");
  });

  it("drops an upload cancelled while it waits, at once", async () => {
    const queue = new UploadQueue({ network: new FakeNetwork(false) });
    const { upload } = harness();
    const done = queue.add(upload);
    upload.cancel();
    expect(await done).toBe(upload);
    expect(upload.state).toBe("cancelled");
    expect(queue.pending).toHaveLength(0);
  });

  it("frees the slot of an upload cancelled while running", async () => {
    const queue = new UploadQueue({ concurrency: 1, network: new FakeNetwork() });
    const first = harness();
    first.api.handlers.initiate = (_r, s) => hang(s);
    const second = harness();
    const done = [queue.add(first.upload), queue.add(second.upload)];
    await settle();
    first.upload.cancel();
    expect((await Promise.all(done)).map((u) => u.state)).toEqual(["cancelled", "ready"]);
  });

  it("stops listening to the network on dispose", () => {
    const network = new FakeNetwork();
    const queue = new UploadQueue({ network });
    expect(network.listenerCount).toBe(1);
    queue.dispose();
    expect(network.listenerCount).toBe(0);
  });
});
