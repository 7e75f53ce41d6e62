import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { parseWebhookUrl, refusedAddress } from "../../domain/webhooks/url-policy.js";
import type { SendResult, WebhookSender } from "../../app/webhooks/delivery/port.js";
import { resolveHost, type ResolveHost } from "./resolve-host.js";

class RefusedAddress extends Error {}

/**
 * POSTs one webhook. The address check runs inside the connection's own DNS lookup, so the
 * address that is checked is the address that is connected to (no window for DNS rebinding);
 * TLS still verifies the certificate against the host name. Redirects are not followed.
 */
export function createWebhookSender(options: { allowPrivate: boolean; timeoutMs: number; resolve?: ResolveHost }): WebhookSender {
  const resolve = options.resolve ?? resolveHost;
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(new Error(`host ${hostname} does not resolve`), "");
        const refused = refusedAddress(hostname, addresses, options.allowPrivate);
        if (refused) return callback(new RefusedAddress(refused), "");
        const answers = addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
        // With autoSelectFamily (the default) the connection asks for every address at once.
        if (lookupOptions.all) return callback(null, answers);
        callback(null, answers[0]!.address, answers[0]!.family);
      },
      (error: Error) => callback(error, ""),
    );
  };

  return async (webhook) => {
    const parsed = parseWebhookUrl(webhook.url);
    if (!parsed.ok) return { kind: "refused", reason: `url ${parsed.reason}` };
    const { hostname, https } = parsed.value;
    // An IP literal is connected to without a lookup, so it is checked here.
    const literal = isIP(hostname) ? refusedAddress(hostname, [hostname], options.allowPrivate) : undefined;
    if (literal) return { kind: "refused", reason: literal };
    const requestOptions: RequestOptions = {
      method: "POST",
      headers: { ...webhook.headers, "content-length": String(Buffer.byteLength(webhook.body)) },
      lookup,
      agent: false,
    };
    return new Promise<SendResult>((resolvePromise) => {
      const req = (https ? httpsRequest : httpRequest)(webhook.url, requestOptions, (res) => {
        resolvePromise({ kind: "answered", status: res.statusCode ?? 0 });
        res.destroy(); // only the status matters; the body is not waited for
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
      req.on("close", () => clearTimeout(timer));
      req.on("error", (error) => {
        clearTimeout(timer);
        if (error instanceof RefusedAddress) resolvePromise({ kind: "refused", reason: error.message });
        else resolvePromise({ kind: "failed", error: error.message || String(error) });
      });
      req.end(webhook.body);
    });
  };
}
