import { describe, expect, it } from "vitest";
import { ApiError, UploadError } from "../../../packages/client/src/browser-uploader/errors.js";
import { harness, hang, OBJECT_ID, settle, storedObject, unavailable } from "./fakes.js";

describe("an upload's states", () => {
  it("goes idle → initiating → uploading → completing → scanning → ready", async () => {
    const { upload, api, states } = harness();
    expect(upload.state).toBe("idle");
    await upload.start();
    expect(states).toEqual(["initiating", "uploading", "completing", "scanning", "ready"]);
    expect(api.calls).toEqual(["initiate", "complete", "complete(wait)"]);
    expect(upload.object?.status).toBe("READY");
  });

  it("ends rejected with the scan's failed checks", async () => {
    const { upload, api, states } = harness();
    const checks = [{ name: "magic_bytes", passed: false, reason: "MAGIC_BYTES_MISMATCH", message: "not a PNG" }];
    api.handlers.complete = async (_id, { waitForResult }) =>
      storedObject(waitForResult ? "REJECTED" : "SCANNING", { scanResult: { passed: false, checks } });
    await upload.start();
    expect(states.at(-1)).toBe("rejected");
    expect(upload.object?.scanResult?.checks).toEqual(checks);
  });

  it("sends initiate the class, the owner, and the file's name, type and size", async () => {
    const { upload, api } = harness();
    let request: unknown;
    const initiate = api.handlers.initiate;
    api.handlers.initiate = (r, s) => ((request = r), initiate(r, s));
    await upload.start();
    expect(request).toEqual({
      objectClass: "USER_PROFILE_PHOTO", ownerEntityType: "User", ownerEntityId: "u1", originalFilename: "me.png", contentType: "image/png", fileSize: 1000, acceptMultipart: true,
    });
  });

  it("PUTs the file to the upload URL with exactly the headers of the answer", async () => {
    const { upload, transfer, api } = harness();
    await upload.start();
    expect(transfer.requests).toHaveLength(1);
    expect(transfer.requests[0]!.url).toBe(api.target(1).url);
    expect(transfer.requests[0]!.headers).toEqual(api.target(1).headers);
    expect(transfer.requests[0]!.body).toBe(upload.file);
  });

  it("skips scanning when complete already answers the scan's end", async () => {
    const { upload, api, states } = harness();
    api.handlers.complete = async () => storedObject("READY");
    await upload.start();
    expect(states).toEqual(["initiating", "uploading", "completing", "ready"]);
  });

  it("polls GetUpload every 2 s when the server's wait ended with the object still SCANNING", async () => {
    const { upload, api, clock } = harness();
    api.handlers.complete = async () => storedObject("SCANNING");
    let polls = 0;
    api.handlers.getUpload = async () => storedObject(++polls < 3 ? "SCANNING" : "READY");
    await upload.start();
    expect(upload.state).toBe("ready");
    expect(api.calls).toEqual(["initiate", "complete", "complete(wait)", "get", "get", "get"]);
    expect(clock.sleeps).toEqual([2000, 2000, 2000]);
  });

  it("falls back to polling when the server's wait failed transiently", async () => {
    const { upload, api } = harness();
    api.handlers.complete = async (_id, { waitForResult }) => {
      if (waitForResult) throw unavailable();
      return storedObject("SCANNING");
    };
    await upload.start();
    expect(upload.state).toBe("ready");
    expect(api.calls.slice(-2)).toEqual(["complete(wait)", "get"]);
  });

  it("ends in error SCAN_TIMEOUT when the scan outlasts scanTimeoutMs", async () => {
    const { upload, api } = harness({ scanTimeoutMs: 5000 });
    api.handlers.complete = async () => storedObject("SCANNING");
    api.handlers.getUpload = async () => storedObject("SCANNING");
    await upload.start();
    expect(upload.state).toBe("error");
    expect(upload.error?.reason).toBe("SCAN_TIMEOUT");
  });

  it("runs once: a second start() returns the same result without new requests", async () => {
    const { upload, api } = harness();
    const [a, b] = await Promise.all([upload.start(), upload.start()]);
    expect(a).toBe(b);
    await upload.start();
    expect(api.calls.filter((c) => c === "initiate")).toHaveLength(1);
  });
});

describe("progress", () => {
  it("reports loaded, total and a percentage from the transfer, 100 only at the end", async () => {
    const { upload, percentages } = harness();
    const seen: { loaded: number; total: number }[] = [];
    upload.subscribe((u) => seen.push({ loaded: u.progress.loaded, total: u.progress.total }));
    await upload.start();
    expect(percentages).toEqual([0, 25, 50, 75, 100]);
    expect(upload.progress).toEqual({ loaded: 1000, total: 1000, percentage: 100 });
    expect(seen.every((p) => p.total === 1000)).toBe(true);
  });

  it("rounds down, so 99.9 % is not shown as done", async () => {
    const { upload, transfer, percentages } = harness();
    transfer.respond = async (request) => {
      request.onProgress(999, 1000);
      return { status: 200, body: "" };
    };
    await upload.start();
    expect(percentages).toContain(99);
    expect(percentages.indexOf(100)).toBe(percentages.length - 1);
  });

  it("starts again from 0 when the PUT is sent again", async () => {
    const { upload, transfer, percentages } = harness();
    transfer.respond = async (_r, attempt) => (attempt === 1 ? { status: 503, body: "" } : { status: 200, body: "" });
    await upload.start();
    expect(percentages).toEqual([0, 25, 50, 75, 0, 25, 50, 75, 100]);
  });
});

describe("an expired upload URL", () => {
  const expired = { status: 403, body: "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>" };

  it("is refreshed after the storage backend answers 403 'Request has expired', and the PUT is sent again", async () => {
    const { upload, api, transfer } = harness();
    transfer.respond = async (_r, attempt) => (attempt === 1 ? expired : { status: 200, body: "" });
    await upload.start();
    expect(upload.state).toBe("ready");
    expect(api.calls).toEqual(["initiate", "refresh", "complete", "complete(wait)"]);
    expect(transfer.requests.map((r) => r.headers["x-sig"])).toEqual(["1", "2"]);
  });

  it("is refreshed before sending when its expiry already passed (after a long offline wait)", async () => {
    const { upload, api, clock, transfer } = harness();
    api.handlers.initiate = async () => ({ object: storedObject("PENDING_UPLOAD"), target: { ...api.target(1), expiresAt: new Date(clock.now() - 1) } });
    await upload.start();
    expect(api.calls.slice(0, 2)).toEqual(["initiate", "refresh"]);
    expect(transfer.requests.map((r) => r.headers["x-sig"])).toEqual(["2"]);
  });

  it("is refreshed when complete answers UPLOAD_URL_EXPIRED, then the bytes go again", async () => {
    const { upload, api, states, transfer } = harness();
    let completes = 0;
    api.handlers.complete = async (_id, { waitForResult }) => {
      if (!waitForResult && ++completes === 1) throw new ApiError("invalid_argument", "UPLOAD_URL_EXPIRED", "expired");
      return storedObject(waitForResult ? "READY" : "SCANNING");
    };
    await upload.start();
    expect(states).toEqual(["initiating", "uploading", "completing", "uploading", "completing", "scanning", "ready"]);
    expect(api.calls).toEqual(["initiate", "complete", "refresh", "complete", "complete(wait)"]);
    expect(transfer.requests).toHaveLength(2);
  });

  it("ends in error UPLOAD_URL_EXPIRED when it keeps expiring", async () => {
    const { upload, transfer } = harness({ maxReuploads: 2 });
    transfer.respond = async () => expired;
    await upload.start();
    expect(upload.error?.reason).toBe("UPLOAD_URL_EXPIRED");
    expect(transfer.requests).toHaveLength(3);
  });

  it("a 403 for another reason is not retried", async () => {
    const { upload, api, transfer } = harness();
    transfer.respond = async () => ({ status: 403, body: "<Error><Code>SignatureDoesNotMatch</Code><Message>bad signature</Message></Error>" });
    await upload.start();
    expect(upload.error?.reason).toBe("TRANSFER_REFUSED");
    expect(upload.error?.message).toContain("bad signature");
    expect(api.calls).not.toContain("refresh");
    expect(transfer.requests).toHaveLength(1);
  });
});

describe("retries", () => {
  it("retries a failed PUT (network error) with backoff, then completes", async () => {
    const retries: unknown[] = [];
    const { upload, transfer, clock } = harness({ onRetry: (info) => retries.push({ step: info.step, attempt: info.attempt }) });
    transfer.respond = async (_r, attempt) => {
      if (attempt < 3) throw new UploadError("NETWORK", "network error", { transient: true });
      return { status: 200, body: "" };
    };
    await upload.start();
    expect(upload.state).toBe("ready");
    expect(retries).toEqual([{ step: "upload", attempt: 1 }, { step: "upload", attempt: 2 }]);
    expect(clock.sleeps).toEqual([250, 500]); // random 0.5 × 500 ms × 2^(n-1)
  });

  it("treats 412 on a retried PUT as 'the first attempt arrived' and completes", async () => {
    const { upload, transfer } = harness();
    transfer.respond = async (_r, attempt) => {
      if (attempt === 1) throw new UploadError("NETWORK", "answer lost", { transient: true });
      return { status: 412, body: "<Error><Code>PreconditionFailed</Code></Error>" };
    };
    await upload.start();
    expect(upload.state).toBe("ready");
  });

  it("retries an unavailable API and gives up after maxAttempts with a transient error", async () => {
    const { upload, api } = harness({ retry: { maxAttempts: 3 } });
    api.handlers.initiate = async () => {
      throw unavailable();
    };
    await upload.start();
    expect(api.calls).toEqual(["initiate", "initiate", "initiate"]);
    expect(upload.state).toBe("error");
    expect(upload.error).toMatchObject({ reason: "UNAVAILABLE", transient: true });
  });

  it("does not retry what the API refused (invalid_argument)", async () => {
    const { upload, api } = harness();
    api.handlers.initiate = async () => {
      throw new ApiError("invalid_argument", "FILE_TOO_LARGE", "too large for the global maximum");
    };
    await upload.start();
    expect(api.calls).toEqual(["initiate"]);
    expect(upload.error).toMatchObject({ reason: "FILE_TOO_LARGE", transient: false });
  });

  it("waits for the network before a retry without spending attempts", async () => {
    const { upload, transfer, network } = harness({ retry: { maxAttempts: 2 } });
    transfer.respond = async (_r, attempt) => {
      if (attempt === 1) {
        network.set(false);
        throw new UploadError("NETWORK", "offline", { transient: true });
      }
      return { status: 200, body: "" };
    };
    const done = upload.start();
    await settle();
    expect(upload.state).toBe("uploading");
    expect(transfer.requests).toHaveLength(1);
    network.set(true);
    await done;
    expect(upload.state).toBe("ready");
    expect(transfer.requests).toHaveLength(2);
  });
});

describe("cancel", () => {
  it("while idle: the upload never starts", async () => {
    const { upload, api } = harness();
    expect(upload.cancel()).toBe(true);
    await upload.start();
    expect(upload.state).toBe("cancelled");
    expect(api.calls).toEqual([]);
  });

  it("while initiating: aborts the API call", async () => {
    const { upload, api, states } = harness();
    let signal: AbortSignal | undefined;
    api.handlers.initiate = (_r, s) => ((signal = s), hang(s));
    const done = upload.start();
    await settle();
    expect(upload.state).toBe("initiating");
    expect(upload.cancel()).toBe(true);
    await done;
    expect(signal?.aborted).toBe(true);
    expect(states).toEqual(["initiating", "cancelled"]);
  });

  it("while uploading: aborts the PUT and reports no further progress", async () => {
    const { upload, transfer, states, percentages } = harness();
    transfer.respond = (request) => hang(request.signal);
    const done = upload.start();
    await settle();
    expect(upload.state).toBe("uploading");
    expect(upload.cancel()).toBe(true);
    await done;
    expect(transfer.requests[0]!.signal.aborted).toBe(true);
    expect(states).toEqual(["initiating", "uploading", "cancelled"]);
    transfer.requests[0]!.onProgress(1000, 1000);
    expect(percentages.at(-1)).toBe(75);
  });

  it("while completing: aborts the complete call", async () => {
    const { upload, api, states } = harness();
    api.handlers.complete = (_id, _o, s) => hang(s);
    const done = upload.start();
    await settle();
    expect(upload.state).toBe("completing");
    expect(upload.cancel()).toBe(true);
    await done;
    expect(states).toEqual(["initiating", "uploading", "completing", "cancelled"]);
  });

  it("while waiting for a retry: stops the backoff", async () => {
    const { upload, api } = harness();
    let attempts = 0;
    api.handlers.initiate = async () => {
      attempts++;
      upload.cancel(); // cancelled during the failed attempt, before the backoff sleep
      throw unavailable();
    };
    await upload.start();
    expect(upload.state).toBe("cancelled");
    expect(attempts).toBe(1);
  });

  it("is refused while scanning: the bytes are stored and the scan ends anyway", async () => {
    const { upload, api } = harness();
    let finish!: () => void;
    api.handlers.complete = (_id, { waitForResult }) =>
      waitForResult ? new Promise((resolve) => (finish = () => resolve(storedObject("READY")))) : Promise.resolve(storedObject("SCANNING"));
    const done = upload.start();
    await settle();
    expect(upload.state).toBe("scanning");
    expect(upload.cancel()).toBe(false);
    finish();
    await done;
    expect(upload.state).toBe("ready");
  });

  it("is refused once ended", async () => {
    const { upload } = harness();
    await upload.start();
    expect(upload.cancel()).toBe(false);
    expect(upload.state).toBe("ready");
  });
});

describe("class rules before any request", () => {
  it("refuses a type the class does not allow", async () => {
    const { upload, api, transfer, states } = harness({}, new File(["%PDF-1.7"], "cv.pdf", { type: "application/pdf" }));
    await upload.start();
    expect(states).toEqual(["error"]);
    expect(upload.error?.reason).toBe("CONTENT_TYPE_NOT_ALLOWED");
    expect(api.calls).toEqual([]);
    expect(transfer.requests).toEqual([]);
  });

  it("refuses a file over the class maximum", async () => {
    const { upload, api } = harness({ objectClass: "CUSTOMER_SIGNATURE" }, new File([new Uint8Array(2 * 1024 * 1024 + 1)], "s.png", { type: "image/png" }));
    await upload.start();
    expect(upload.error?.reason).toBe("FILE_TOO_LARGE");
    expect(api.calls).toEqual([]);
  });

  it("refuses an unknown class", async () => {
    const { upload, api } = harness({ objectClass: "HOLIDAY_PHOTO" });
    await upload.start();
    expect(upload.error?.reason).toBe("UNKNOWN_OBJECT_CLASS");
    expect(api.calls).toEqual([]);
  });

  it("uses the contentType option over the browser's guess", async () => {
    const { upload, api } = harness({ contentType: "image/webp" }, new File([new Uint8Array(10)], "x.bin", { type: "" }));
    await upload.start();
    expect(upload.state).toBe("ready");
    expect(api.calls[0]).toBe("initiate");
  });
});

it("reports the object id it works on", async () => {
  const { upload } = harness();
  await upload.start();
  expect(upload.object?.id).toBe(OBJECT_ID);
});
