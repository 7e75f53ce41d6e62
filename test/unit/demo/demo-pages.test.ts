import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createDemoPages } from "../../../src/demo/demo-pages.js";
import { createTokenVerifier } from "../../../src/rpc/token-verifier.js";

const SECRET = "unit-test-secret-unit-test-secret";
const servers: http.Server[] = [];

/** The pages behind a real HTTP server, routed by exact path as http-server.ts does. */
async function serve(hs256Secret?: string, claims: { issuer?: string; audience?: string } = {}): Promise<string> {
  const pages = createDemoPages({ hs256Secret, ...claims, logger: pino({ level: "silent" }) });
  const server = http.createServer((req, res) => {
    const page = pages[(req.url ?? "/").split("?")[0]!];
    if (page) return void page(req, res);
    res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe("the demo pages", () => {
  it("serve the page and the bundled app", async () => {
    const base = await serve(SECRET);
    const page = await fetch(`${base}/demo`);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain('src="/demo/app.js"');
    const app = await fetch(`${base}/demo/app.js`);
    expect(app.status).toBe(200);
    expect(app.headers.get("content-type")).toContain("javascript");
    expect(await app.text()).toContain("// packages/client/src/browser-uploader/uploader.ts");
  });

  it("serve the Uppy page and its script, Uppy and the client package's adapter bundled", async () => {
    const base = await serve(SECRET);
    const page = await fetch(`${base}/demo/uppy`);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain('src="/demo/uppy.js"');
    const app = await fetch(`${base}/demo/uppy.js`);
    expect(app.status).toBe(200);
    const code = await app.text();
    expect(code).toContain("// packages/client/src/uppy/aws-s3-options.ts");
    expect(code).toContain("// node_modules/@uppy/aws-s3/lib/index.js");
  });

  it("serve the service worker as a classic script whose scope may be /demo itself", async () => {
    const base = await serve(SECRET);
    const worker = await fetch(`${base}/demo/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get("content-type")).toContain("javascript");
    expect(worker.headers.get("service-worker-allowed")).toBe("/demo");
    const code = await worker.text();
    expect(code).toContain("demo-shell-v1");
    expect(code).not.toMatch(/^[ \t]*(import|export)\b/m);
  });

  it("sign a development token the server's verifier accepts, for the tenant and user asked", async () => {
    const base = await serve(SECRET);
    const { token } = (await (await fetch(`${base}/demo/token?tenant=acme&user=alice`)).json()) as { token: string };
    const principal = await createTokenVerifier({ hs256Secret: SECRET })(token);
    expect(principal).toMatchObject({ tenantId: "acme", actorId: "alice" });
    expect(principal.permissions.has("stored_object:CREATE")).toBe(true);
  });

  it("sign with the server's issuer and audience, which its verifier checks", async () => {
    const claims = { issuer: "https://id.example", audience: "files" };
    const base = await serve(SECRET, claims);
    const { token } = (await (await fetch(`${base}/demo/token?tenant=acme&user=alice`)).json()) as { token: string };
    expect(await createTokenVerifier({ hs256Secret: SECRET, ...claims })(token)).toMatchObject({ tenantId: "acme" });
    await expect(createTokenVerifier({ hs256Secret: SECRET, issuer: "https://other.example" })(token)).rejects.toThrow('unexpected "iss" claim value');
  });

  it("refuse odd tenant names and methods other than GET", async () => {
    const base = await serve(SECRET);
    expect((await fetch(`${base}/demo/token?tenant=${encodeURIComponent("a b")}`)).status).toBe(400);
    const post = await fetch(`${base}/demo`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("have no token endpoint when the server verifies no HS256 secret", async () => {
    const base = await serve(undefined);
    expect((await fetch(`${base}/demo/token`)).status).toBe(404);
  });
});
