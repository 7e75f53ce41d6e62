import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../packages/client/src/browser-uploader/errors.js";
import { partRanges } from "../../../packages/client/src/browser-uploader/part-transfer.js";
import { MemoryQueueStore, type QueueRecord, type UploadQueueStore } from "../../../packages/client/src/browser-uploader/queue-store.js";
import { UploadQueue } from "../../../packages/client/src/browser-uploader/queue.js";
import type { TransferRequest, TransferResponse } from "../../../packages/client/src/browser-uploader/upload-api.js";
import { createUpload } from "../../../packages/client/src/browser-uploader/uploader.js";
import { FakeNetwork, OBJECT_ID, harness, hang, partNumberOf, settle, storedObject } from "./fakes.js";

const PLAN = { partSize: 400, partCount: 3 };

/** A 1000-byte file whose bytes differ per position, so that each part has its own SHA-256. */
function bigFile() {
  return new File([Uint8Array.from({ length: 1000 }, (_, i) => i % 251)], "big.csv", { type: "text/csv" });
}

/** A multipart harness where every part PUT that succeeds lands in the fake storage. */
function multipart(overrides: Parameters<typeof harness>[0] = {}) {
  const h = harness({ objectClass: "IMPORT_FILE", ...overrides }, bigFile());
  h.api.answerMultipart(PLAN);
  h.transfer.respond = async (request) => landed(h.api.held, request);
  return h;
}

function store(held: Map<number, number>, request: TransferRequest, response: TransferResponse): TransferResponse {
  if (response.status === 200) held.set(partNumberOf(request.url)!, request.body.size);
  return response;
}

const sha256 = async (blob: Blob) => createHash("sha256").update(new Uint8Array(await blob.arrayBuffer())).digest("base64");

describe("the browser uploader in parts", () => {
  it("cuts the file as the server planned: every part but the last of partSize bytes", () => {
    expect(partRanges(1000, PLAN)).toEqual([
      { partNumber: 1, start: 0, end: 400 },
      { partNumber: 2, start: 400, end: 800 },
      { partNumber: 3, start: 800, end: 1000 },
    ]);
  });

  it("asks for multipart, signs each part with its length and SHA-256, sends them and ends READY at 100 %", async () => {
    const { upload, api, transfer, percentages } = multipart();
    await upload.start();
    expect(upload.state, String(upload.error)).toBe("ready");
    // Parts finish in any order (three in flight at once): storage's list is by number.
    expect([...api.held].sort(([a], [b]) => a - b)).toEqual([[1, 400], [2, 400], [3, 200]]);
    const file = bigFile();
    for (const [index, range] of partRanges(1000, PLAN).entries()) {
      const signed = api.signed.find((part) => part.partNumber === range.partNumber)!;
      expect(signed.contentLength).toBe(range.end - range.start);
      expect(signed.contentSha256, `part ${index + 1}`).toBe(await sha256(file.slice(range.start, range.end)));
    }
    expect(transfer.requests).toHaveLength(3);
    expect(percentages.at(-1)).toBe(100);
    expect(api.calls.filter((call) => call.startsWith("complete"))).toEqual(["complete", "complete(wait)"]);
  });

  it("keeps at most partConcurrency parts in flight", async () => {
    const { upload, api, transfer } = multipart({ partConcurrency: 2 });
    let inFlight = 0;
    let most = 0;
    transfer.respond = async (request) => {
      most = Math.max(most, ++inFlight);
      await settle();
      inFlight--;
      return store(api.held, request, { status: 200, body: "" });
    };
    await upload.start();
    expect(upload.state).toBe("ready");
    expect(most).toBe(2);
  });

  it("retries a part storage failed with backoff and sends no other part twice", async () => {
    const { upload, api, transfer, clock } = multipart();
    let failures = 0;
    transfer.respond = async (request) =>
      store(api.held, request, partNumberOf(request.url) === 2 && failures++ < 2 ? { status: 503, body: "" } : { status: 200, body: "" });
    await upload.start();
    expect(upload.state).toBe("ready");
    expect(transfer.requests.map((request) => partNumberOf(request.url)).sort()).toEqual([1, 2, 2, 2, 3]);
    expect(clock.sleeps).toHaveLength(2);
  });

  it("a part refused for another reason ends the upload in error and stops the parts in flight", async () => {
    const { upload, api, transfer } = multipart();
    const stopped: number[] = [];
    transfer.respond = async (request) => {
      const part = partNumberOf(request.url)!;
      if (part === 1) {
        // Refused once the other two are on their way.
        while (transfer.requests.length < 3) await settle();
        return { status: 403, body: "<Error><Message>Access Denied.</Message></Error>" };
      }
      await hang(request.signal).catch(() => stopped.push(part));
      return store(api.held, request, { status: 200, body: "" });
    };
    await upload.start();
    expect(upload.state).toBe("error");
    expect(upload.error?.reason).toBe("TRANSFER_REFUSED");
    expect(upload.error?.message).toContain("Access Denied.");
    expect(stopped.sort()).toEqual([2, 3]);
  });

  it("resumes its object: storage's parts are not sent again, and InitiateUpload is not called", async () => {
    const { upload, api, transfer, percentages } = multipart({ resume: { objectId: OBJECT_ID, multipart: PLAN } });
    api.handlers.getUpload = async () => storedObject("PENDING_UPLOAD");
    api.held.set(1, 400).set(2, 400);
    await upload.start();
    expect(upload.state, String(upload.error)).toBe("ready");
    expect(api.calls).not.toContain("initiate");
    expect(transfer.requests.map((request) => partNumberOf(request.url))).toEqual([3]);
    expect(percentages[0]).toBe(80); // the held parts count as sent from the start
  });

  it("sends again a held part of another length (cut with another part size)", async () => {
    const { upload, api, transfer } = multipart({ resume: { objectId: OBJECT_ID, multipart: PLAN } });
    api.handlers.getUpload = async () => storedObject("PENDING_UPLOAD");
    api.held.set(1, 400).set(2, 123);
    await upload.start();
    expect(transfer.requests.map((request) => partNumberOf(request.url)).sort()).toEqual([2, 3]);
  });

  it("starts again from InitiateUpload when the resumed object is gone", async () => {
    const { upload, api } = multipart({ resume: { objectId: OBJECT_ID, multipart: PLAN } });
    api.handlers.getUpload = async () => {
      throw new ApiError("not_found", "OBJECT_NOT_FOUND", "gone");
    };
    api.handlers.complete = async (_id, { waitForResult }) => storedObject(waitForResult ? "READY" : "SCANNING");
    await upload.start();
    expect(upload.state).toBe("ready");
    expect(api.calls.slice(0, 2)).toEqual(["get", "initiate"]);
  });

  it("a resumed object already stored is not sent again: the upload waits for its scan", async () => {
    const { upload, api, transfer } = multipart({ resume: { objectId: OBJECT_ID, multipart: PLAN } });
    const answers = [storedObject("SCANNING"), storedObject("READY")];
    api.handlers.getUpload = async () => answers.shift()!;
    await upload.start();
    expect(upload.state).toBe("ready");
    expect(transfer.requests).toHaveLength(0);
  });

  it("cancel aborts the multipart upload, so storage drops its parts at once", async () => {
    const { upload, api, transfer } = multipart();
    transfer.respond = (request) => hang(request.signal);
    const done = upload.start();
    await expect.poll(() => transfer.requests.length).toBe(3);
    expect(upload.cancel()).toBe(true);
    await done;
    expect(upload.state).toBe("cancelled");
    expect(api.calls).toContain("abort");
  });

  it("sends no byte before the queue stored the object to resume: a reload at any point after loses no part", async () => {
    const writes: QueueRecord[] = [];
    let commit = () => {};
    // The store writes the entry at once, then holds the write that names the object.
    const store: UploadQueueStore = {
      put: (record) => {
        writes.push(record);
        return record.recipe.resume ? new Promise((resolve) => (commit = resolve)) : Promise.resolve();
      },
      delete: async () => undefined,
      list: async () => [],
    };
    const { upload, api, transfer } = multipart();
    const ended = new UploadQueue({ store, network: new FakeNetwork() }).add(upload);
    await expect.poll(() => writes.length).toBe(2);
    for (let i = 0; i < 5; i++) await settle();
    expect(api.calls).toContain("initiate");
    expect(transfer.requests).toHaveLength(0);
    expect(writes[1]!.recipe.resume).toEqual({ objectId: OBJECT_ID, multipart: PLAN });
    commit();
    expect((await ended).state).toBe("ready");
    expect(transfer.requests).toHaveLength(3);
  });

  it("a store that never answers holds the bytes back only resumeWriteWaitMs, then the upload goes on", async () => {
    const store: UploadQueueStore = { put: () => new Promise(() => undefined), delete: async () => undefined, list: async () => [] };
    const { upload, transfer } = multipart();
    const ended = new UploadQueue({ store, network: new FakeNetwork(), resumeWriteWaitMs: 50 }).add(upload);
    expect((await ended).state, String(upload.error)).toBe("ready");
    expect(transfer.requests).toHaveLength(3);
  });

  it("the queue keeps the object of a running upload, so that a reload resumes it", async () => {
    const store = new MemoryQueueStore();
    const network = new FakeNetwork();
    const first = multipart();
    // Part 3 never arrives: the page goes away while it is on its way.
    first.transfer.respond = async (request) => (partNumberOf(request.url) === 3 ? hang(request.signal) : landed(first.api.held, request));
    const queue = new UploadQueue({ store, network, newId: () => "entry-1" });
    void queue.add(first.upload);
    await expect.poll(() => first.api.held.size).toBe(2);
    await queue.persisted();
    const [record] = await store.list();
    expect(record!.recipe.resume).toEqual({ objectId: OBJECT_ID, multipart: PLAN });

    // The reload: a new page, a new queue, the same store and storage (the first page's upload
    // is left hanging, as a page that went away leaves it).
    const second = multipart();
    second.api.handlers.getUpload = async () => storedObject("PENDING_UPLOAD");
    for (const [part, size] of first.api.held) second.api.held.set(part, size);
    const restored = new UploadQueue({ store, network });
    const [ended] = await restored.restore((file, recipe) =>
      createUpload(file, { ...recipe, api: second.api, transfer: second.transfer.transfer, network, clock: second.clock, random: () => 0.5 }),
    );
    const upload = await ended!;
    expect(upload.state, String(upload.error)).toBe("ready");
    expect(second.api.calls).not.toContain("initiate");
    expect(second.transfer.requests.map((request) => partNumberOf(request.url))).toEqual([3]);
  });
});

function landed(held: Map<number, number>, request: TransferRequest): TransferResponse {
  return store(held, request, { status: 200, body: "" });
}
