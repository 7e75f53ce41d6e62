import { AppError } from "../../domain/errors.js";
import { parseWebhookUrl, refusedAddress, urlNotAllowed } from "../../domain/webhooks/url-policy.js";
import { resolveHost, type ResolveHost } from "./resolve-host.js";

/**
 * The check of a webhook URL when it is registered: its form, then every address its host
 * resolves to. Delivery checks again at connection time (DNS can change), see http-sender.ts.
 */
export function createUrlGuard(options: { allowPrivate: boolean; resolve?: ResolveHost }): (url: string) => Promise<void> {
  const resolve = options.resolve ?? resolveHost;
  return async (url) => {
    const parsed = parseWebhookUrl(url);
    if (!parsed.ok) throw urlNotAllowed(parsed.reason);
    if (options.allowPrivate) return;
    let addresses: string[];
    try {
      addresses = await resolve(parsed.value.hostname);
    } catch (error) {
      throw new AppError("WEBHOOK_URL_NOT_ALLOWED", `url: host ${parsed.value.hostname} could not be resolved; retry later`, {
        violations: [{ field: "url", description: "host could not be resolved" }],
        cause: error,
      });
    }
    const refused = refusedAddress(parsed.value.hostname, addresses, false);
    if (refused) throw urlNotAllowed(refused);
  };
}
