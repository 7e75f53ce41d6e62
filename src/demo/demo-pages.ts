/**
 * Serves the demo page (development only; startApi serves it only with DEVELOPMENT_MODE=true):
 * GET /demo, /demo/app.js (src/demo/app.ts bundled by esbuild at the first request), /demo/sw.js
 * (the service worker that lets the page open offline, offline-shell-worker.ts, bundled alike),
 * the Uppy page, /demo/uppy and /demo/uppy.js (uppy-page.ts: @uppy/core and @uppy/aws-s3 with the
 * client package's adapter, docs/uppy.md), and /demo/token (a development token, only when the
 * server verifies the HS256 secret).
 */
import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import type { Logger } from "../logger.js";
import type { RequestHandler } from "../rpc/http-server.js";
import { signDevelopmentToken } from "../rpc/dev-token.js";

export interface DemoPagesOptions {
  /** The server's HS256 secret; without it (JWKS only) /demo/token is not served. */
  hs256Secret?: string;
  /** The server's AUTH_ISSUER / AUTH_AUDIENCE, which the tokens must carry. */
  issuer?: string;
  audience?: string;
  logger: Logger;
}

type Res = Parameters<RequestHandler>[1];

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function send(res: Res, status: number, contentType: string, body: string, extra: Record<string, string> = {}): void {
  (res as ServerResponse).writeHead(status, { "content-type": contentType, "cache-control": "no-store", "x-content-type-options": "nosniff", ...extra });
  res.end(body);
}

/** GET and HEAD only; anything else is answered 405 here. */
function getOnly(handler: (url: URL, res: Res) => Promise<void>): RequestHandler {
  return async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain", "method not allowed\n", { allow: "GET, HEAD" });
    await handler(new URL(req.url ?? "/", "http://localhost"), res);
  };
}

/** Runs `build` once; a failure is not kept, so fixing app.ts and reloading works. */
function once(build: () => Promise<string>): () => Promise<string> {
  let pending: Promise<string> | undefined;
  return () => {
    pending ??= build().catch((error) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

async function bundleApp(logger: Logger, entry = "./app.ts", format: "esm" | "iife" = "esm"): Promise<string> {
  const started = performance.now();
  // esbuild only in development (it comes with tsx); outside development mode these pages are not served.
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    write: false,
    format,
    platform: "browser",
    // @files-and-fields/client from its TypeScript sources, as everywhere in this repository.
    conditions: ["source"],
    target: "es2022",
    legalComments: "none",
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.text;
  logger.info({ entry, bytes: code.length, ms: Math.round(performance.now() - started) }, "demo bundle built");
  return code;
}

export function createDemoPages(options: DemoPagesOptions): Record<string, RequestHandler> {
  const html = once(() => readFile(new URL("./index.html", import.meta.url), "utf8"));
  const app = once(() => bundleApp(options.logger));
  const uppyHtml = once(() => readFile(new URL("./uppy.html", import.meta.url), "utf8"));
  const uppyApp = once(() => bundleApp(options.logger, "./uppy-page.ts"));
  // A classic script: module service workers are not in every browser that runs the page.
  const serviceWorker = once(() => bundleApp(options.logger, "./offline-shell-worker.ts", "iife"));
  const script = (bundle: () => Promise<string>, headers: Record<string, string> = {}) =>
    getOnly(async (_url, res) => {
      try {
        send(res, 200, "text/javascript; charset=utf-8", await bundle(), headers);
      } catch (error) {
        options.logger.error({ err: error }, "demo bundle failed");
        send(res, 500, "text/plain", `the demo bundle failed: ${(error as Error).message}\n`);
      }
    });
  const pages: Record<string, RequestHandler> = {
    "/demo": getOnly(async (_url, res) => send(res, 200, "text/html; charset=utf-8", await html())),
    "/demo/app.js": script(app),
    "/demo/uppy": getOnly(async (_url, res) => send(res, 200, "text/html; charset=utf-8", await uppyHtml())),
    "/demo/uppy.js": script(uppyApp),
    // Its own path is /demo/sw.js; the header lets its scope be /demo, the page itself.
    "/demo/sw.js": script(serviceWorker, { "service-worker-allowed": "/demo" }),
  };
  const secret = options.hs256Secret;
  if (secret) {
    pages["/demo/token"] = getOnly(async (url, res) => {
      const tenant = url.searchParams.get("tenant") || "demo";
      const user = url.searchParams.get("user") || "demo-user";
      if (!NAME.test(tenant) || !NAME.test(user)) return send(res, 400, "text/plain", "tenant and user: 1-64 of A-Z a-z 0-9 _ . -\n");
      const token = await signDevelopmentToken(secret, { tenant, user, issuer: options.issuer, audience: options.audience });
      send(res, 200, "application/json", JSON.stringify({ token, tenant, user }));
    });
  }
  return pages;
}
