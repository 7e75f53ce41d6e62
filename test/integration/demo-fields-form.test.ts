/**
 * The demo page's custom fields form in real headless Chromium (playwright-core, Debian's
 * /usr/bin/chromium), against an API of this file's own started with DEVELOPMENT_MODE=true (the
 * page is served only then) that shares the suite's database. The definitions are created through
 * the suite's API; the page syncs them with the fields client, evaluates them on its main thread as
 * the user types, creates customers through the API, and with the network off keeps working from
 * IndexedDB and queues the create until the network is back. The tests share one page and run in order.
 *
 * Screenshots go to docs/images/ with UPDATE_SCREENSHOTS=1, to a temporary directory otherwise.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/chromium.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { startProcessPair, type ProcessPair } from "../support/process-pair.js";

const scratch = mkdtempSync(path.join(tmpdir(), "demo-fields-form-"));
const IMAGES = process.env.UPDATE_SCREENSHOTS === "1" ? path.join(process.cwd(), "docs", "images") : scratch;

const tier = {
  fieldKey: "tier", fieldLabel: "Tier", fieldType: "select", description: "Pricing tier of the account", defaultValue: "silver", displayOrder: 1,
  uiConfig: { options: [{ label: "Gold", value: "gold" }, { label: "Silver", value: "silver" }, { label: "Bronze", value: "bronze" }] },
};
const credit = { fieldKey: "credit", fieldLabel: "Credit", fieldType: "number", validation: { min: 0, max: 1000 }, uiConfig: { placeholder: "0 to 1000" }, displayOrder: 2 };
/** Required only for gold customers (a validation rule), and then shaped like an EU VAT id (an RE2 pattern). */
const vat_id = {
  fieldKey: "vat_id", fieldLabel: "VAT id", fieldType: "string", displayOrder: 3, validation: { pattern: "^[A-Z]{2}[0-9]{8,12}$" },
  validationRules: [{ name: "gold-needs-vat", priority: 1, when: { operator: "AND", conditions: [{ field: "entity.customFields.tier", operator: "equals", value: "gold" }] }, then: { required: true } }],
};
const limit = { fieldKey: "limit", fieldLabel: "Credit limit", fieldType: "computed", computedFormula: "round(credit * 1.5)", displayOrder: 4 };
const since = { fieldKey: "since", fieldLabel: "Customer since", fieldType: "date", displayOrder: 5 };
const score = { fieldKey: "score", fieldLabel: "Internal score", fieldType: "number", defaultValue: "7", uiConfig: { hidden: true }, displayOrder: 6 };
const region = { fieldKey: "region", fieldLabel: "Region", fieldType: "string", defaultValue: "EU", uiConfig: { readOnly: true }, displayOrder: 7 };
const newsletter = { fieldKey: "newsletter", fieldLabel: "Newsletter", fieldType: "boolean", defaultValue: "true", displayOrder: 8 };
const warranty = { entityType: "Product", fieldKey: "warranty_months", fieldLabel: "Warranty (months)", fieldType: "number", defaultValue: "24", displayOrder: 1 };
const customerFields = [tier, credit, vat_id, limit, since, score, region, newsletter].map((def) => ({ entityType: "Customer", ...def }));

let browser: Browser;
let demo: ProcessPair;

beforeAll(async () => {
  browser = await launchChromium();
  demo = await startProcessPair("demo-form", { DEVELOPMENT_MODE: "true" });
}, 180_000);

afterAll(async () => {
  await demo?.supervisor.stopAll();
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the custom fields form on the demo page", () => {
  const tenant = uniqueTenant("form");
  let token: string;
  let context: BrowserContext;
  let page: Page;

  const row = (key: string) => page.locator(`#fields-entity .field-row[data-field="${key}"]`);
  const control = (key: string) => page.locator(`#field-${key}`);
  const violation = (key: string) => row(key).locator(".violation");
  /** The result line of a submit, by its state and the entity's name. */
  const result = (state: string, name: string) => page.locator(`#fields-results li.submit[data-state="${state}"]`, { hasText: `"${name}"` });
  const customKeys = () => page.locator("#fields-entity fieldset:nth-of-type(2) .field-row").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.field));

  /** The fields of `entityType` are rendered and their first evaluation shown (defaults, computed values). */
  async function evaluated(entityType: string): Promise<void> {
    await page.waitForSelector(`#fields-entity[data-violations] > .entity-fields[data-entity-type="${entityType}"]`, { timeout: 10_000 });
  }

  /** Waits until the field's control shows `text` (an output's text, an input's value). */
  async function shows(key: string, text: string): Promise<void> {
    await page.waitForFunction(
      ([key, text]) => {
        const element = document.getElementById(`field-${key}`);
        return (element instanceof HTMLOutputElement ? element.textContent : (element as HTMLInputElement | null)?.value) === text;
      },
      [key, text] as const,
      { timeout: 10_000 },
    );
  }

  /** The page after a (re)load: its token fetched or refused, the form rendered from a sync or from IndexedDB. */
  async function formReady(): Promise<void> {
    await page.waitForSelector("body[data-fields-form-ready]", { timeout: 30_000 });
  }

  async function customersNamed(name: string): Promise<{ id: string; customFields: Record<string, unknown> }[]> {
    const res = await rest("GET", `/api/v1/customers?${new URLSearchParams({ name })}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.customers;
  }

  beforeAll(async () => {
    token = await tokenFor(tenant, { user: "alice" });
    for (const body of [...customerFields, warranty]) {
      const res = await rest("POST", "/api/v1/custom-fields", { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    context = await browser.newContext({ viewport: { width: 1040, height: 900 } });
    page = await context.newPage();
    await page.goto(`${demo.baseUrl}/demo?tenant=${tenant}&user=alice`);
    await formReady();
  });

  afterAll(async () => {
    await context?.close();
  });

  it("syncs the definitions of the picked entity type, renders its own and custom fields, and creates it", async () => {
    await page.selectOption("#fields-entity-type", "Product");
    await evaluated("Product");
    expect(await page.locator("#fields-status").getAttribute("data-state")).toBe("synced");
    expect(await customKeys()).toEqual(["warranty_months"]);
    for (const key of ["sku", "name", "priceCents"]) expect(await row(key).count(), key).toBe(1);
    expect(await control("warranty_months").inputValue()).toBe("24");

    // The second module creates through its own RPC, with its own columns.
    await control("sku").fill("CHAIR-01");
    await control("name").fill("Office chair");
    await control("priceCents").fill("12900");
    await page.click("#fields-submit");
    const created = result("created", "Office chair");
    await created.waitFor();
    const products = await rest("GET", "/api/v1/products?sku=CHAIR-01", { token });
    expect(products.body.products).toMatchObject([{ id: await created.getAttribute("data-entity-id"), name: "Office chair", priceCents: "12900", customFields: { warranty_months: 24 } }]);

    await page.selectOption("#fields-entity-type", "Customer");
    await evaluated("Customer");
  });

  it("renders the custom fields by display order with their type's control, label, description and placeholder; hidden ones not at all", async () => {
    expect(await customKeys()).toEqual(["tier", "credit", "vat_id", "limit", "since", "region", "newsletter"]);
    expect(await row("score").count()).toBe(0);
    expect(await row("tier").locator("label").innerText()).toContain("Tier");
    expect(await row("tier").innerText()).toContain("Pricing tier of the account");
    expect(await control("tier").locator("option").allTextContents()).toEqual(["—", "Gold", "Silver", "Bronze"]);
    expect(await control("credit").getAttribute("type")).toBe("number");
    expect(await control("credit").getAttribute("placeholder")).toBe("0 to 1000");
    expect(await control("since").getAttribute("type")).toBe("date");
    expect(await control("newsletter").getAttribute("type")).toBe("checkbox");
    expect(await control("limit").evaluate((e) => e.tagName)).toBe("OUTPUT");
  });

  it("shows the defaults on first render and keeps a readOnly field read-only", async () => {
    expect(await control("tier").inputValue()).toBe("silver");
    expect(await control("region").inputValue()).toBe("EU");
    expect(await control("region").evaluate((e) => (e as HTMLInputElement).readOnly)).toBe(true);
    expect(await control("newsletter").isChecked()).toBe(true);
    // Marked required: the module's own name; vat_id not yet (its rule wants a gold tier).
    expect(await row("name").getAttribute("class")).toContain("required");
    expect(await row("vat_id").getAttribute("class")).not.toContain("required");
  });

  it("updates the computed value and the violations live as the user types", async () => {
    await control("credit").fill("200");
    await shows("limit", "300");
    expect(await violation("credit").textContent()).toBe("");

    await control("credit").fill("2000");
    await page.waitForFunction(() => document.querySelector('.field-row[data-field="credit"] .violation')?.textContent !== "");
    expect(await violation("credit").textContent()).toMatch(/1000/);
    expect(await control("limit").textContent()).toBe("");

    await control("tier").selectOption("gold");
    await page.waitForSelector('.field-row[data-field="vat_id"].required.invalid');
    expect(await violation("vat_id").textContent()).toContain("gold-needs-vat");

    await control("vat_id").fill("de-123");
    await page.waitForFunction(() => /pattern|match/i.test(document.querySelector('.field-row[data-field="vat_id"] .violation')?.textContent ?? ""));
  });

  it("submits to the server and shows its violations per field when it refuses", async () => {
    await control("name").fill("ACME GmbH");
    await control("email").fill("billing@acme.example");
    await page.click("#fields-submit");
    const refused = result("refused", "ACME GmbH");
    await refused.waitFor();
    expect(await refused.innerText()).toContain("CUSTOM_FIELD_VALIDATION_FAILED");
    expect(await refused.locator("li[data-field]").evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset.field).sort())).toEqual(["credit", "vat_id"]);
    expect(await customersNamed("ACME GmbH")).toEqual([]);
    await page.locator("#fields-form").screenshot({ path: path.join(IMAGES, "custom-fields-form.png") });
  });

  it("creates the customer once the values pass, with the id and the server's values shown", async () => {
    await control("credit").fill("400");
    await control("vat_id").fill("DE123456789");
    await control("since").fill("2025-02-03");
    await shows("limit", "600");
    await page.waitForSelector('#fields-entity[data-violations="0"]');
    await page.click("#fields-submit");
    const created = result("created", "ACME GmbH");
    await created.waitFor();
    const id = await created.getAttribute("data-entity-id");

    const [stored] = await customersNamed("ACME GmbH");
    expect(stored?.id).toBe(id);
    expect(stored?.customFields).toEqual({ tier: "gold", credit: 400, vat_id: "DE123456789", limit: 600, since: "2025-02-03", score: 7, region: "EU", newsletter: true });
    expect(JSON.parse(await created.locator("pre.server-values").innerText())).toEqual(stored?.customFields);
  });

  it("offline, reloads from the cached page, renders the form from IndexedDB, evaluates and queues the create", async () => {
    await page.waitForSelector("body[data-offline-ready]", { timeout: 20_000 });
    await context.setOffline(true);
    // The network is off for the service worker too: the page comes from its cache.
    expect((await page.reload())?.fromServiceWorker()).toBe(true);
    await formReady();
    expect(await page.locator("#fields-status").getAttribute("data-state")).toBe("offline");
    expect(await customKeys()).toEqual(["tier", "credit", "vat_id", "limit", "since", "region", "newsletter"]);

    await control("name").fill("Offline GmbH");
    await control("email").fill("offline@acme.example");
    // What the offline resolution refuses is not queued: the server would refuse it later, unseen.
    await control("credit").fill("5000");
    await page.waitForSelector('#fields-entity[data-violations="1"]');
    await page.click("#fields-submit");
    await page.locator('#fields-results li[data-state="not-sent"]').waitFor();
    await control("credit").fill("100");
    await shows("limit", "150");
    await page.waitForSelector('#fields-entity[data-violations="0"]');
    await page.click("#fields-submit");
    await result("queued", "Offline GmbH").waitFor();
    await page.locator("#fields-form").screenshot({ path: path.join(IMAGES, "custom-fields-form-offline.png") });
    expect(await customersNamed("Offline GmbH")).toEqual([]);
  });

  it("keeps the queued create across another offline reload", async () => {
    await page.reload();
    await formReady();
    expect(await result("queued", "Offline GmbH").count()).toBe(1);
    expect(await customersNamed("Offline GmbH")).toEqual([]);
  });

  it("sends the queued create when the network is back and shows its outcome", async () => {
    await context.setOffline(false);
    const created = result("created", "Offline GmbH");
    await created.waitFor({ timeout: 30_000 });
    expect(await page.locator('#fields-results li[data-state="queued"]').count()).toBe(0);
    const stored = await customersNamed("Offline GmbH");
    expect(stored.map((c) => c.id)).toEqual([await created.getAttribute("data-entity-id")]);
    expect(stored[0]?.customFields).toEqual({ tier: "silver", credit: 100, limit: 150, score: 7, region: "EU", newsletter: true });
    await page.waitForSelector('#fields-status[data-state="synced"]');
  });
});
