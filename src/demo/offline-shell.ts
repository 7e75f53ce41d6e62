/**
 * Registers the demo page's service worker (offline-shell-worker.ts), which lets the page open
 * again without network. `data-offline-ready` on the body tells a waiting test (or person) that
 * the page and its bundle are cached.
 */
export async function registerOfflineShell(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  // The worker is served from /demo/sw.js with Service-Worker-Allowed, so its scope can hold /demo itself.
  await navigator.serviceWorker.register("/demo/sw.js", { scope: "/demo" });
  await navigator.serviceWorker.ready;
  document.body.dataset.offlineReady = "true";
}
