/**
 * The REST API as a client calls it, without vitest (test/support/clients.ts reads the URL from
 * vitest's inject): the base URL is passed in.
 */
import { DEVELOPMENT_JWT_SECRET } from "../src/config/auth.js";
import { signDevelopmentToken } from "../src/rpc/dev-token.js";

export interface Api {
  baseUrl: string;
  tenant: string;
  token: string;
}

export function tokenFor(tenant: string, user = "bench-user"): Promise<string> {
  return signDevelopmentToken(DEVELOPMENT_JWT_SECRET, { tenant, user, ttl: "2h" });
}

/** A fresh tenant with a token for it, so groups never see each other's rows. */
export async function apiFor(baseUrl: string, prefix: string): Promise<Api> {
  const tenant = `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
  return { baseUrl, tenant, token: await tokenFor(tenant) };
}

/** A JSON call; anything but 200 throws with the body, since a failed call measures nothing. */
export async function rest<T = any>(api: Api, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${api.token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${api.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Runs `work` for 0..count-1 with at most `concurrency` in flight; results in index order. */
export async function runPool<T>(count: number, concurrency: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await work(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Progress goes to stderr, so stdout carries only the table. */
export function progress(line: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}
