/**
 * @files-and-fields/client as an outside project gets it: `npm pack` of the workspace, installed
 * into an empty project in the system's temporary directory (no way up to this repository's
 * sources or node_modules), with none of the repository's settings (the "source" condition, npm's
 * environment). The Node client uploads a file end to end; the fields client evaluates synced
 * definitions in Node; the browser uploader, bundled by esbuild from the installed package,
 * uploads one in headless Chromium; tsc checks a consumer's code against the package's declarations.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../fixtures/files/index.js";
import { launchChromium } from "../support/chromium.js";
import { apiUrl, tokenFor, uniqueTenant } from "../support/clients.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const work = mkdtempSync(path.join(tmpdir(), "client-package-"));
const consumer = path.join(work, "consumer");

/** The environment of a stranger's shell: nothing of npm's run (npm_*, its NODE_OPTIONS) leaks in. */
function strangerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|NODE_OPTIONS$|NODE_PATH$|INIT_CWD$)/i.test(key)));
  return { ...env, ...extra };
}

/** A consumer's program, run by Node's type stripping and checked by tsc: the Node client's upload. */
const NODE_UPLOAD = `
import { createNodeClients } from "@files-and-fields/client/node";
import { ObjectClass, ObjectStatus } from "@files-and-fields/client/gen/filestorage/v1/types_pb.js";

declare const process: { env: Record<string, string | undefined> };

const bytes = Uint8Array.from(atob(process.env.FILE_BASE64 ?? ""), (c) => c.charCodeAt(0));
const { files } = createNodeClients({ baseUrl: process.env.API_URL ?? "", token: process.env.TOKEN ?? "" });
const started = await files.initiateUpload({
  objectClass: ObjectClass.USER_PROFILE_PHOTO,
  ownerEntityType: "User",
  ownerEntityId: "u1",
  originalFilename: "me.png",
  contentType: "image/png",
  fileSize: BigInt(bytes.length),
});
const put = await fetch(started.uploadUrl, { method: "PUT", headers: started.uploadHeaders, body: bytes });
if (!put.ok) throw new Error(\`PUT answered \${put.status}\`);
const { storedObject } = await files.completeUpload({ objectId: started.storedObject!.id, waitForResult: true });
console.log(JSON.stringify({ status: ObjectStatus[storedObject!.status] }));
`;

/** The offline fields client in Node: definitions synced into a file, evaluated with the package's copy of the domain code. */
const NODE_FIELDS = `
import { createNodeClients } from "@files-and-fields/client/node";
import { createFieldsClient } from "@files-and-fields/client/fields-client";
import { fileStore } from "@files-and-fields/client/fields-client/file-store";

declare const process: { env: Record<string, string | undefined> };

const baseUrl = process.env.API_URL ?? "";
const token = process.env.TOKEN ?? "";
const { fields } = createNodeClients({ baseUrl, token, protocol: "connect" });
await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "credit", fieldLabel: "Credit", fieldType: "number" });
await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "code", fieldLabel: "Code", fieldType: "string", validation: { pattern: "^[A-Z]{2}-\\\\d{4}$" } });
await fields.createFieldDefinition({ entityType: "Customer", fieldKey: "limit", fieldLabel: "Limit", fieldType: "computed", computedFormula: "round(credit * 1.5)" });
const client = createFieldsClient({ baseUrl, token, store: fileStore(process.env.STORE ?? ""), user: { id: "alice" }, namespace: "consumer" });
const synced = await client.sync("Customer");
const values = await client.resolveForCreate("Customer", { credit: 100, code: "DE-1234" });
const refused = await client.resolveForCreate("Customer", { code: "de-1234" }).then(() => "accepted", (error: { reason?: string }) => error.reason);
console.log(JSON.stringify({ changed: synced.changed, values, refused }));
`;

/** The Uppy adapter from the package, in a project without Uppy: the options it gives a 20 MB and a 1 KB file. */
const UPPY_OPTIONS = `
import { createFileStorageClient } from "@files-and-fields/client/browser-uploader";
import { uppyAwsS3Options } from "@files-and-fields/client/uppy";

const client = createFileStorageClient({ baseUrl: "http://127.0.0.1:1", token: () => "t" });
const options = uppyAwsS3Options(client, { objectClass: "GENERAL_DOCUMENT", ownerEntityType: "Customer", ownerEntityId: "c1" });
const big = { name: "big.pdf", size: 20_000_000, type: "application/pdf" };
const small = { name: "small.pdf", size: 1_000, type: "application/pdf" };
console.log(JSON.stringify({ multipart: [options.shouldUseMultipart(big), options.shouldUseMultipart(small)], chunk: options.getChunkSize({ size: big.size }) }));
`;

/** The page's module: the installed browser uploader, called from the test through window. */
const PAGE_MODULE = `
import { createConnectUploadApi, createFileStorageClient, createUpload } from "@files-and-fields/client/browser-uploader";

declare global {
  interface Window { uploadOnce(token: string, bytes: number[]): Promise<{ state: string; status?: string; reason?: string }> }
}

window.uploadOnce = async (token, bytes) => {
  const api = createConnectUploadApi(createFileStorageClient({ baseUrl: location.origin, token: () => token }));
  const file = new File([new Uint8Array(bytes)], "page.png", { type: "image/png" });
  const ended = await createUpload(file, { api, objectClass: "USER_PROFILE_PHOTO", ownerEntityType: "User", ownerEntityId: "u1" }).start();
  return { state: ended.state, status: ended.object?.status, reason: ended.error?.reason };
};
`;

const TSCONFIG = {
  compilerOptions: { target: "ES2023", lib: ["ES2023", "DOM", "DOM.Iterable"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: false, types: [] },
  include: ["*.ts"],
};

let browser: Browser;
let pageServer: Server;
let pageOrigin: string;

beforeAll(async () => {
  await run("npm", ["pack", "--workspace", "packages/client", "--pack-destination", work], { cwd: root });
  const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
  mkdirSync(consumer);
  writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  writeFileSync(path.join(consumer, "tsconfig.json"), JSON.stringify(TSCONFIG));
  writeFileSync(path.join(consumer, "upload.ts"), NODE_UPLOAD);
  writeFileSync(path.join(consumer, "fields.ts"), NODE_FIELDS);
  writeFileSync(path.join(consumer, "page.ts"), PAGE_MODULE);
  writeFileSync(path.join(consumer, "uppy.ts"), UPPY_OPTIONS);
  // The registry (or npm's cache) provides the package's dependencies, as for any installation.
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", path.join(work, tarball!)], { cwd: consumer, env: strangerEnv() });
  const { build } = await import("esbuild");
  const bundle = await build({ entryPoints: [path.join(consumer, "page.ts")], absWorkingDir: consumer, bundle: true, write: false, format: "esm", platform: "browser", metafile: true, logLevel: "silent" });
  const outside = Object.keys(bundle.metafile.inputs).filter((input) => !path.resolve(consumer, input).startsWith(consumer + path.sep));
  if (outside.length > 0) throw new Error(`the page's bundle read files outside the consumer project: ${outside.join(", ")}`);
  const script = bundle.outputFiles[0]!.text;
  // A real server on loopback: Chromium lets a page reach MinIO on loopback only from there.
  pageServer = createServer((req, res) => {
    if (req.url === "/page.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>client package</title><script type="module" src="/page.js"></script>');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  pageServer?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("the packed client package in an empty project", () => {
  it("installs without the repository: compiled entries and declarations only", () => {
    const installed = path.join(consumer, "node_modules", "@files-and-fields", "client");
    expect(readdirSync(installed).sort()).toEqual(["CHANGELOG.md", "dist", "package.json"]);
  });

  it("type-checks a consumer's code against the declarations of the entries", async () => {
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const checked = await run(process.execPath, [tsc, "-p", consumer], { cwd: consumer, env: strangerEnv() }).catch((error: { stdout: string }) => error);
    expect(checked.stdout).toBe("");
  });

  it("uploads a file end to end with the Node client (initiate, PUT, complete with wait)", async () => {
    const env = strangerEnv({ API_URL: apiUrl(), TOKEN: await tokenFor(uniqueTenant("package")), FILE_BASE64: Buffer.from(png(8, 8)).toString("base64") });
    const { stdout } = await run(process.execPath, ["upload.ts"], { cwd: consumer, env });
    expect(JSON.parse(stdout)).toEqual({ status: "READY" });
  });

  it("gives Uppy's AwsS3 options from the package, without Uppy installed", async () => {
    const { stdout } = await run(process.execPath, ["uppy.ts"], { cwd: consumer, env: strangerEnv() });
    expect(JSON.parse(stdout)).toEqual({ multipart: [true, false], chunk: 8 * 1024 * 1024 });
  });

  it("evaluates custom fields offline in Node with the fields client (formula, pattern)", async () => {
    const env = strangerEnv({ API_URL: apiUrl(), TOKEN: await tokenFor(uniqueTenant("package-fields")), STORE: path.join(work, "fields.json") });
    const { stdout } = await run(process.execPath, ["fields.ts"], { cwd: consumer, env });
    expect(JSON.parse(stdout)).toEqual({ changed: true, values: { credit: 100, code: "DE-1234", limit: 150 }, refused: "CUSTOM_FIELD_VALIDATION_FAILED" });
  });

  it("uploads a file from headless Chromium with the browser uploader bundled from the package", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // The API sends no CORS headers (docs/clients.md): the page's Connect calls reach it as
      // through one reverse proxy in front of both. The bytes go to MinIO's origin directly.
      await page.route(`${pageOrigin}/filestorage.v1.FileStorageService/*`, async (route) => {
        const { pathname } = new URL(route.request().url());
        await route.fulfill({ response: await route.fetch({ url: `${apiUrl()}${pathname}` }) });
      });
      await page.goto(`${pageOrigin}/`);
      await page.waitForFunction(() => typeof window.uploadOnce === "function");
      const token = await tokenFor(uniqueTenant("package-page"));
      const ended = await page.evaluate(([t, bytes]) => window.uploadOnce(t, bytes), [token, [...png(8, 8)]] as const);
      expect(ended).toEqual({ state: "ready", status: "READY" });
    } finally {
      await context.close();
    }
  });
});

declare global {
  interface Window {
    uploadOnce(token: string, bytes: readonly number[]): Promise<{ state: string; status?: string; reason?: string }>;
  }
}
