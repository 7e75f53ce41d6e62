/**
 * The fields client in real headless Chromium, in a Web Worker: definitions synced from the
 * running server (in Node), handed to the worker's IndexedDB store, and evaluated there offline
 * must equal the server's ResolveValuesForCreate. A worker, because re2-wasm cannot load on a
 * page's main thread (docs/fields-client.md); the definitions here use no `pattern`, which
 * re2-wasm cannot check in a browser yet.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFieldsClient, memoryStore } from "../../src/fields-client/index.js";
import { apiUrl, rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { violationsOf } from "../support/errors.js";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"];
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The worker: the package's browser entry, an IndexedDB store, a transport that is always offline. */
const WORKER = `
import { Code, ConnectError } from "@connectrpc/connect";
import { createFieldsClient, indexedDbStore } from "./src/fields-client/index.ts";
const offline = { unary: () => Promise.reject(new ConnectError("offline", Code.Unavailable)), stream: () => Promise.reject(new ConnectError("offline", Code.Unavailable)) };
self.onmessage = async ({ data }) => {
  const store = indexedDbStore({ databaseName: "fields-client-test" });
  await store.put("default:Customer", data.stored);
  const client = createFieldsClient({ transport: offline, store, user: { id: "alice" } });
  const answers = [];
  for (const entity of data.entities) {
    try {
      answers.push({ values: await client.resolveForCreate("Customer", entity.customFields, entity.context) });
    } catch (error) {
      answers.push({ refused: (error.violations ?? []).map((v) => v.field), reason: error.reason ?? String(error) });
    }
  }
  self.postMessage(answers);
};
`;

const definitions = [
  { entityType: "Customer", fieldKey: "tier", fieldLabel: "Tier", fieldType: "select", uiConfig: { options: [{ label: "Gold", value: "gold" }, { label: "Silver", value: "silver" }] }, defaultValue: "silver", displayOrder: 1 },
  { entityType: "Customer", fieldKey: "credit", fieldLabel: "Credit", fieldType: "number", validation: { min: 0, max: 1000 }, displayOrder: 2 },
  {
    entityType: "Customer",
    fieldKey: "region",
    fieldLabel: "Region",
    fieldType: "string",
    defaultStrategy: "rule-based",
    defaultRules: [{ name: "eu", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.country", operator: "in", value: ["DE", "FR"] }] }, then: { defaultValue: "EU" }, else: { defaultValue: "OTHER" } }],
    validation: { maxLength: 5 },
    displayOrder: 3,
  },
  { entityType: "Customer", fieldKey: "limit", fieldLabel: "Limit", fieldType: "computed", computedFormula: "round(credit * 1.5)", displayOrder: 4 },
  { entityType: "Customer", fieldKey: "since", fieldLabel: "Since", fieldType: "date", displayOrder: 5 },
];

const entities = [
  { customFields: { credit: 100 }, context: { entity: { country: "DE" } } },
  { customFields: { credit: "250", tier: "gold", since: "2025-02-03" }, context: { entity: { country: "US" } } },
  { customFields: { credit: 5000, since: "not a date" }, context: { entity: { country: "FR" } } },
  { customFields: { tier: "bronze", unknown: 1 }, context: {} },
];

let browser: Browser;
let server: Server;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium)`);
  const { build } = await import("esbuild");
  const bundle = await build({
    stdin: { contents: WORKER, resolveDir: ROOT, loader: "ts", sourcefile: "fields-client-worker.ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    // Named only in re2-wasm's Node branch.
    external: ["fs", "path"],
    logLevel: "silent",
  });
  const worker = bundle.outputFiles[0]!.text;
  const wasm = readFileSync(new URL("../../node_modules/re2-wasm/build/wasm/re2.wasm", import.meta.url));
  server = createServer((req, res) => {
    if (req.url === "/worker.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(worker);
    if (req.url === "/re2.wasm") return res.writeHead(200, { "content-type": "application/wasm" }).end(wasm);
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>fields client</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("fields client in Chromium", () => {
  it("evaluates offline in a Web Worker from IndexedDB as the server resolves", async () => {
    const token = await tokenFor(uniqueTenant("fcb"), { user: "alice" });
    for (const body of definitions) {
      const res = await rest("POST", "/api/v1/custom-fields", { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const store = memoryStore();
    await createFieldsClient({ baseUrl: apiUrl(), token, store, user: { id: "alice" } }).sync("Customer");
    const stored = await store.get("default:Customer");

    const expected: ({ values: unknown } | { refused: string[] })[] = [];
    for (const entity of entities) {
      const res = await rest("POST", "/api/v1/custom-fields/Customer:resolve", { token, body: entity });
      expected.push(res.status === 200 ? { values: res.body.customFields } : { refused: violationsOf(res.body) });
    }

    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const input: { stored: unknown; entities: unknown } = { stored, entities };
    const answers = await page.evaluate(
      ({ stored, entities }) =>
        new Promise<unknown[]>((resolve, reject) => {
          const worker = new Worker("/worker.js", { type: "module" });
          worker.onmessage = (event) => resolve(event.data as unknown[]);
          worker.onerror = (event) => reject(new Error(event.message));
          worker.postMessage({ stored, entities });
        }),
      input,
    );
    await page.close();

    expect(answers).toHaveLength(entities.length);
    answers.forEach((answer, i) => {
      const server = expected[i]!;
      if ("values" in server) expect(answer).toEqual(server);
      else expect(answer).toEqual({ refused: server.refused, reason: "CUSTOM_FIELD_VALIDATION_FAILED" });
    });
    expect(expected.filter((e) => "values" in e).length).toBeGreaterThanOrEqual(2);
  });
});
