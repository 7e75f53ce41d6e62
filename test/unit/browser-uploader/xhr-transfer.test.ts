import { describe, expect, it } from "vitest";
import { CancelledError, UploadError } from "../../../packages/client/src/browser-uploader/errors.js";
import { xhrTransfer } from "../../../packages/client/src/browser-uploader/xhr-transfer.js";

/** The part of XMLHttpRequest the transfer uses, driven by the test. */
class FakeXhr {
  method = "";
  url = "";
  headers: Record<string, string> = {};
  sent?: unknown;
  aborted = false;
  status = 0;
  responseText = "";
  upload: { onprogress?: (e: { loaded: number; total: number; lengthComputable: boolean }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  ontimeout?: () => void;
  onabort?: () => void;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
}

function start(headers: Record<string, string> = {}) {
  const xhr = new FakeXhr();
  const controller = new AbortController();
  const progress: [number, number][] = [];
  const body = new Blob([new Uint8Array(400)]);
  const result = xhrTransfer(() => xhr as unknown as XMLHttpRequest)({
    url: "https://storage.test/k?sig",
    headers,
    body,
    signal: controller.signal,
    onProgress: (loaded, total) => progress.push([loaded, total]),
  });
  return { xhr, controller, progress, body, result };
}

describe("xhrTransfer", () => {
  it("PUTs the blob with the signed headers, leaving Content-Length to the browser", async () => {
    const { xhr, body, result } = start({ "content-type": "image/png", "content-length": "400", "if-none-match": "*" });
    expect(xhr.method).toBe("PUT");
    expect(xhr.headers).toEqual({ "content-type": "image/png", "if-none-match": "*" });
    expect(xhr.sent).toBe(body);
    xhr.status = 200;
    xhr.onload!();
    expect(await result).toEqual({ status: 200, body: "" });
  });

  it("reports progress from upload.onprogress", () => {
    const { xhr, progress } = start();
    xhr.upload.onprogress!({ loaded: 100, total: 400, lengthComputable: true });
    xhr.upload.onprogress!({ loaded: 200, total: 0, lengthComputable: false });
    expect(progress).toEqual([[100, 400], [200, 400]]);
  });

  it("resolves error statuses with the body (the S3 error XML)", async () => {
    const { xhr, result } = start();
    xhr.status = 403;
    xhr.responseText = "<Error><Message>Request has expired</Message></Error>";
    xhr.onload!();
    expect(await result).toMatchObject({ status: 403, body: expect.stringContaining("expired") });
  });

  it("rejects a network failure as a transient NETWORK error", async () => {
    const { xhr, result } = start();
    xhr.onerror!();
    const error = await result.catch((e) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ reason: "NETWORK", transient: true });
  });

  it("aborts the request when the signal aborts", async () => {
    const { xhr, controller, result } = start();
    controller.abort();
    await expect(result).rejects.toBeInstanceOf(CancelledError);
    expect(xhr.aborted).toBe(true);
  });
});
