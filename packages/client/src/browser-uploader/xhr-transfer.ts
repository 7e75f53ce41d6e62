import { CancelledError, UploadError } from "./errors.js";
import type { Transfer } from "./upload-api.js";

/** Headers a page may not set; the browser derives them (Content-Length from the Blob). */
const BROWSER_CONTROLLED = new Set(["content-length", "host", "connection"]);

/**
 * The PUT through XMLHttpRequest: unlike fetch, it reports upload progress
 * (`xhr.upload.onprogress`), and `xhr.abort()` stops the transfer at once.
 */
export function xhrTransfer(createXhr: () => XMLHttpRequest = () => new XMLHttpRequest()): Transfer {
  return ({ url, headers, body, signal, onProgress }) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new CancelledError());
      const xhr = createXhr();
      const onAbort = () => xhr.abort();
      const settle = () => signal.removeEventListener("abort", onAbort);
      xhr.open("PUT", url);
      for (const [name, value] of Object.entries(headers)) {
        if (!BROWSER_CONTROLLED.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
      }
      xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : body.size);
      xhr.onload = () => {
        settle();
        resolve({ status: xhr.status, body: typeof xhr.responseText === "string" ? xhr.responseText : "" });
      };
      xhr.onerror = () => {
        settle();
        reject(new UploadError("NETWORK", "the upload to the storage backend failed (network error)", { transient: true }));
      };
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => {
        settle();
        reject(new CancelledError());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      xhr.send(body);
    });
}
