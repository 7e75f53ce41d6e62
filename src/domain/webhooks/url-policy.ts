import { AppError } from "../errors.js";
import { classifyAddress } from "./ip-address.js";

/** Where a webhook goes: the URL as given, and the host to resolve (IPv6 without brackets). */
export interface WebhookTarget {
  url: string;
  hostname: string;
  https: boolean;
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: string };

/** http or https only, with a host, and no credentials (they would travel in every request). */
export function parseWebhookUrl(raw: string): Verdict<WebhookTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "is not a valid URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: `must use http or https, not ${url.protocol.replace(/:$/, "")}` };
  if (url.username || url.password) return { ok: false, reason: "must not carry credentials" };
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!hostname) return { ok: false, reason: "must name a host" };
  return { ok: true, value: { url: url.toString(), hostname, https: url.protocol === "https:" } };
}

/**
 * Why these resolved addresses may not be called, or undefined when they may. Every address must
 * be public: a host that resolves to one public and one private address would let DNS pick the
 * private one. `allowPrivate` is the development setting that lets a local receiver work.
 */
export function refusedAddress(hostname: string, addresses: readonly string[], allowPrivate: boolean): string | undefined {
  if (addresses.length === 0) return `host ${hostname} does not resolve`;
  if (allowPrivate) return undefined;
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind !== "public") return `host ${hostname} resolves to ${address}, a ${kind} address`;
  }
  return undefined;
}

export function urlNotAllowed(reason: string, field = "url"): AppError {
  return new AppError("WEBHOOK_URL_NOT_ALLOWED", `${field} ${reason}`, { violations: [{ field, description: reason }] });
}
