/**
 * The demo page's service worker (served as /demo/sw.js): it keeps the page and its bundle in the
 * Cache API, so that a reload without network still opens the page, whose forms then work from
 * IndexedDB. Network first, so a changed app.ts is seen at once in development; the cache only
 * answers when the network does not. Every other request (the API, storage) bypasses the worker
 * through static routes, so it behaves, and is intercepted by tests, as on a page without one.
 */

// A module, so that these names stay out of the global scope of the other files tsc checks.
export {};

// The DOM lib types this file; these are the few service worker types it uses.
interface InstallEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
  /** The static routing API (Chromium 123+): requests matched here never wake the worker. */
  addRoutes?(routes: unknown[]): Promise<void>;
}
interface FetchEvent extends Event {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  addEventListener(type: "install" | "activate", listener: (event: InstallEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  registration: { scope: string };
}

const worker = self as unknown as WorkerScope;
const CACHE = "demo-shell-v1";
const SHELL = ["/demo", "/demo/app.js"];

function shellRoutes(): unknown[] {
  const URLPatternCtor = (globalThis as { URLPattern?: new (init: { pathname: string }) => unknown }).URLPattern;
  if (!URLPatternCtor) return [];
  const shell = SHELL.map((pathname) => ({ urlPattern: new URLPatternCtor({ pathname }) }));
  return [
    { condition: { or: shell }, source: "fetch-event" },
    { condition: { urlPattern: new URLPatternCtor({ pathname: "*" }) }, source: "network" },
  ];
}

worker.addEventListener("install", (event) => {
  const routes = shellRoutes();
  if (event.addRoutes && routes.length > 0) event.waitUntil(event.addRoutes(routes).catch(() => undefined));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)));
  void worker.skipWaiting();
});

worker.addEventListener("activate", (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || !SHELL.includes(url.pathname)) return;
  event.respondWith(networkFirst(event.request, url.pathname));
});

/** Stored by path: /demo?tenant=a and /demo?tenant=b are one page. */
async function networkFirst(request: Request, path: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(path, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(path);
    if (cached) return cached;
    throw error;
  }
}
