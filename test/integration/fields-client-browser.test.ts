/**
 * The fields client in real headless Chromium, on the page's main thread: definitions synced from
 * the running server (in Node), handed to the page's IndexedDB store, and evaluated there offline
 * must equal the server's ResolveValuesForCreate, values and violations alike. Some definitions
 * carry a `validation.pattern`: the page checks it with re2js (package.json's `browser` field),
 * the server with re2-wasm.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BadRequestSchema } from "@files-and-fields/client/gen/google/rpc/error_details_pb.js";
import { createFieldsClient, memoryStore } from "@files-and-fields/client/fields-client";
import { launchChromium } from "../support/chromium.js";
import { apiUrl, rest, tokenFor, uniqueTenant } from "../support/clients.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The page's module: the package's browser entry, an IndexedDB store, a transport that is always offline. */
const PAGE_MODULE = `
import { Code, ConnectError } from "@connectrpc/connect";
import { createFieldsClient, indexedDbStore } from "@files-and-fields/client/fields-client";
const offline = { unary: () => Promise.reject(new ConnectError("offline", Code.Unavailable)), stream: () => Promise.reject(new ConnectError("offline", Code.Unavailable)) };
window.resolveOffline = async (stored, entities) => {
  const store = indexedDbStore({ databaseName: "fields-client-test" });
  await store.put("tenant-a:Customer", stored);
  const client = createFieldsClient({ transport: offline, store, user: { id: "alice" }, namespace: "tenant-a" });
  const answers = [];
  for (const entity of entities) {
    try {
      answers.push({ values: await client.resolveForCreate("Customer", entity.customFields, entity.context) });
    } catch (error) {
      const violations = (error.violations ?? []).map((v) => ({ field: v.field, description: v.description, rule: v.rule }));
      answers.push({ reason: error.reason ?? String(error), violations });
    }
  }
  return answers;
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
  { entityType: "Customer", fieldKey: "code", fieldLabel: "Code", fieldType: "string", validation: { pattern: "^[A-Z]{2}-\\d{4}$" }, displayOrder: 6 },
  { entityType: "Customer", fieldKey: "initial", fieldLabel: "Initial", fieldType: "string", validation: { pattern: "^\\p{Lu}" }, displayOrder: 7 },
  { entityType: "Customer", fieldKey: "ref", fieldLabel: "Reference", fieldType: "string", validation: { pattern: "^(?<area>\\d{3})\\/(?:\\d+)$" }, displayOrder: 8 },
];

const entities = [
  { customFields: { credit: 100, code: "DE-1234", initial: "Émile" }, context: { entity: { country: "DE" } } },
  { customFields: { credit: "250", tier: "gold", since: "2025-02-03", code: "FR-0001", ref: "030/12" }, context: { entity: { country: "US" } } },
  { customFields: { credit: 5000, since: "not a date", code: "de-1234", initial: "émile" }, context: { entity: { country: "FR" } } },
  { customFields: { tier: "bronze", unknown: 1, ref: "30/12" }, context: {} },
  { customFields: { code: "DE-12345", initial: "Ωmega", ref: "030/x" }, context: {} },
];

type Violation = { field: string; description: string };
type Answer = { values: unknown } | { reason: string; violations: Violation[] };

/** The violations of a REST error body (google.rpc.BadRequest), as the server described them. */
function violationsIn(body: { details?: { type: string; value: string }[] }): Violation[] {
  const detail = body.details?.find((d) => d.type === BadRequestSchema.typeName);
  if (!detail) return [];
  return fromBinary(BadRequestSchema, base64Decode(detail.value)).fieldViolations.map(({ field, description }) => ({ field, description }));
}

/** A browser answer as the server words it: src/rpc/errors.ts names the rule that required a field. */
function asServerWords(answer: { reason: string; violations: (Violation & { rule?: string })[] }): Answer {
  const violations = answer.violations.map(({ field, description, rule }) => ({ field, description: rule ? `${description} (required by rule "${rule}")` : description }));
  return { reason: answer.reason, violations };
}

let browser: Browser;
let server: Server;

beforeAll(async () => {
  const { build } = await import("esbuild");
  const bundle = await build({
    stdin: { contents: PAGE_MODULE, resolveDir: ROOT, loader: "ts", sourcefile: "fields-client-page.ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    conditions: ["source"],
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0]!.text;
  server = createServer((req, res) => {
    if (req.url === "/client.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>fields client</title><script type="module" src="/client.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("fields client in Chromium", () => {
  it("evaluates offline on the page's main thread, patterns included, as the server resolves", async () => {
    const token = await tokenFor(uniqueTenant("fcb"), { user: "alice" });
    for (const body of definitions) {
      const res = await rest("POST", "/api/v1/custom-fields", { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const store = memoryStore();
    await createFieldsClient({ baseUrl: apiUrl(), token, store, user: { id: "alice" }, namespace: "tenant-a" }).sync("Customer");
    const stored = await store.get("tenant-a:Customer");

    const expected: Answer[] = [];
    for (const entity of entities) {
      const res = await rest("POST", "/api/v1/custom-fields/Customer:resolve", { token, body: entity });
      expected.push(res.status === 200 ? { values: res.body.customFields } : { reason: "CUSTOM_FIELD_VALIDATION_FAILED", violations: violationsIn(res.body) });
    }

    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    // The module has loaded (re2-wasm could not: it failed at import on the main thread).
    await page.waitForFunction(() => "resolveOffline" in window);
    expect(pageErrors).toEqual([]);
    const input: { stored: unknown; entities: unknown } = { stored, entities };
    const answers = await page.evaluate(
      ({ stored, entities }) => (window as unknown as { resolveOffline(s: unknown, e: unknown): Promise<unknown[]> }).resolveOffline(stored, entities),
      input,
    );
    await page.close();

    expect(answers.map((answer) => ("values" in (answer as object) ? answer : asServerWords(answer as never)))).toEqual(expected);
    // Both outcomes, and patterns deciding both ways, or the comparison proves little.
    expect(expected.filter((e) => "values" in e)).toEqual([
      { values: expect.objectContaining({ code: "DE-1234", initial: "Émile" }) },
      { values: expect.objectContaining({ code: "FR-0001", ref: "030/12" }) },
    ]);
    const refused = expected.flatMap((e) => ("violations" in e ? e.violations : []));
    expect(refused.filter((v) => /pattern/.test(v.description)).map((v) => v.field).sort()).toEqual(
      ["code", "code", "initial", "ref", "ref"].map((key) => expect.stringContaining(key)),
    );
  });
});
