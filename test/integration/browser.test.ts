/**
 * The demo page and the browser uploader in real headless Chromium (Debian's /usr/bin/chromium
 * driven by playwright-core), against the suite's real MinIO and Temporal. The demo page is served
 * only in development mode, so it comes from an API and worker of this file's own started with
 * DEVELOPMENT_MODE=true (the suite's run in the safe mode). The tests of the first block share one
 * page and run in order: the screenshot shows what they left on it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecycleWorkflowId } from "../../src/domain/files/stored-object.js";
import { exe, png } from "../fixtures/files/index.js";
import { launchChromium } from "../support/chromium.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { csvOf, partPutsCounter } from "../support/multipart.js";
import { withTemporal } from "../support/stack-access.js";
import { openWorkflowHistory, openWorkflowList } from "../support/temporal-ui.js";
import { startProcessPair, type ProcessPair } from "../support/process-pair.js";

const IMAGES = path.join(process.cwd(), "docs", "images");
const END = ["ready", "rejected", "cancelled", "error"].map((s) => `[data-state="${s}"]`).join(",");

let browser: Browser;
let demo: ProcessPair;
const files = mkdtempSync(path.join(tmpdir(), "browser-test-"));

function fixture(name: string, bytes: Uint8Array): string {
  const file = path.join(files, name);
  writeFileSync(file, bytes);
  return file;
}

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(IMAGES, { recursive: true });
  demo = await startProcessPair("demo", { DEVELOPMENT_MODE: "true" });
}, 180_000);

afterAll(async () => {
  await demo?.supervisor.stopAll();
  await browser?.close();
  rmSync(files, { recursive: true, force: true });
});

describe("the demo page", () => {
  const tenant = uniqueTenant("demo");
  let context: BrowserContext;
  let page: Page;
  const initiated: string[] = [];

  async function upload(objectClass: string, file: string): Promise<void> {
    await page.selectOption("#objectClass", objectClass);
    await page.setInputFiles("#file", file);
    await page.click("#upload");
  }

  const card = (name: string) => page.locator(`li.upload[data-filename="${name}"]`);

  /** Waits for the card to reach an end state and returns it, with the card's text for failures. */
  async function endState(name: string, timeout = 40_000): Promise<{ state: string | null; text: string }> {
    await page.waitForSelector(`li.upload[data-filename="${name}"]:is(${END})`, { timeout });
    return { state: await card(name).getAttribute("data-state"), text: await card(name).innerText() };
  }

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1040, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on("request", (request) => {
      if (request.url().endsWith("/filestorage.v1.FileStorageService/InitiateUpload")) initiated.push(request.postData() ?? "");
    });
    await page.goto(`${demo.baseUrl}/demo?tenant=${tenant}&user=alice`);
    await page.waitForFunction(() => (document.getElementById("token") as HTMLTextAreaElement).value.length > 0, undefined, { timeout: 20_000 });
    await page.fill("#ownerId", "demo-owner");
    await page.dispatchEvent("#ownerId", "change");
  });

  afterAll(async () => {
    await context?.close();
  });

  it("uploads a valid PNG straight to storage: READY, 100 %, and the file is in the owner's list", async () => {
    await upload("USER_PROFILE_PHOTO", fixture("portrait.png", png(640, 480, { noise: true })));
    const { state, text } = await endState("portrait.png");
    expect(state, text).toBe("ready");
    expect(text).toContain("(100%)");
    expect(await card("portrait.png").locator("progress").evaluate((p: HTMLProgressElement) => p.value)).toBe(100);
    const row = page.locator('#file-rows tr[data-filename="portrait.png"]');
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getAttribute("data-status")).toBe("READY");
  });

  it("shows REJECTED with the failed check's reason for an executable named .png", async () => {
    await upload("USER_PROFILE_PHOTO", fixture("holiday.png", exe()));
    const { state, text } = await endState("holiday.png");
    expect(state, text).toBe("rejected");
    expect(await card("holiday.png").locator(".state").innerText()).toBe("REJECTED");
    expect(text).toMatch(/magic_bytes: \w+/);
    await page.locator('#file-rows tr[data-filename="holiday.png"][data-status="REJECTED"]').waitFor({ timeout: 10_000 });
  });

  it("refuses a type the class does not allow before any request", async () => {
    const before = initiated.length;
    await upload("USER_PROFILE_PHOTO", fixture("notes.txt", new TextEncoder().encode("not an image")));
    const { state, text } = await endState("notes.txt", 5_000);
    expect(state, text).toBe("error");
    expect(text).toContain("CONTENT_TYPE_NOT_ALLOWED");
    expect(initiated.length).toBe(before);
  });

  it("cancels a slow upload while uploading: CANCELLED, the object never completed", async () => {
    // 4 MB through an upload link throttled to 512 KB/s: about 8 s, time to press Cancel.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 512 * 1024 });
    try {
      await upload("GENERAL_DOCUMENT", fixture("scan-4mb.png", png(2048, 2048, { noise: true })));
      await page.waitForFunction(
        () => {
          const item = document.querySelector('li.upload[data-filename="scan-4mb.png"]');
          return item?.getAttribute("data-state") === "uploading" && Number(item.querySelector("progress")?.value) >= 10;
        },
        undefined,
        { timeout: 20_000 },
      );
      await card("scan-4mb.png").locator("button.cancel").click();
      const { state, text } = await endState("scan-4mb.png", 5_000);
      expect(state, text).toBe("cancelled");
      expect(text).toMatch(/\((\d|[1-9]\d)%\)/); // stopped part-way
      expect(await card("scan-4mb.png").locator("button.cancel").isDisabled()).toBe(true);
    } finally {
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    }
    const list = await rest("GET", "/api/v1/uploads?ownerEntityType=User&ownerEntityId=demo-owner", { token: await tokenFor(tenant) });
    const cancelled = list.body.storedObjects.find((o: { originalFilename: string }) => o.originalFilename === "scan-4mb.png");
    expect(cancelled.status).toBe("PENDING_UPLOAD");
  });

  it("queues an upload while offline and sends it when the browser is online again", async () => {
    await context.setOffline(true);
    try {
      await page.waitForSelector("#network.offline", { timeout: 5_000 });
      await upload("GENERAL_DOCUMENT", fixture("offline.png", png(64, 64)));
      await page.waitForTimeout(500);
      expect(await card("offline.png").getAttribute("data-state")).toBe("idle");
    } finally {
      await context.setOffline(false);
    }
    const { state, text } = await endState("offline.png");
    expect(state, text).toBe("ready");
  });

  it("writes docs/images/demo.png", async () => {
    await page.click("#refresh");
    await page.locator('#file-rows tr[data-filename="offline.png"]').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(IMAGES, "demo.png"), fullPage: true });
  });

  it("downloads a READY file through a signed URL and deletes it from the list", async () => {
    const row = page.locator('#file-rows tr[data-filename="portrait.png"]');
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 10_000 }), row.locator("button.download").click()]);
    expect(download.suggestedFilename()).toBe("portrait.png");
    const saved = path.join(files, "downloaded.png");
    await download.saveAs(saved);
    expect(existsSync(saved)).toBe(true);
    await row.locator("button.delete").click();
    await row.waitFor({ state: "detached", timeout: 10_000 });
  });

  it("sends an upload that was under way when the page reloaded again, restored from IndexedDB", async () => {
    // InitiateUpload never answers: the upload is still running when the page goes away.
    const initiate = "**/filestorage.v1.FileStorageService/InitiateUpload";
    await page.route(initiate, () => undefined);
    await upload("GENERAL_DOCUMENT", fixture("reloaded.png", png(48, 48)));
    await page.waitForSelector('li.upload[data-filename="reloaded.png"][data-state="initiating"]', { timeout: 10_000 });
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page.reload();
    const { state, text } = await endState("reloaded.png");
    expect(state, text).toBe("ready");
    // Ended READY, so the stored entry is gone: another reload restores nothing.
    await page.reload();
    await page.waitForSelector("body[data-queue-restored]", { timeout: 20_000 });
    expect(await card("reloaded.png").count()).toBe(0);
  });
});

describe("the browser uploader in parts", () => {
  it("sends a 20 MB file in parts; after a reload half-way it sends only the parts storage lacks, and ends READY", { timeout: 120_000 }, async () => {
    const tenant = uniqueTenant("parts");
    const token = await tokenFor(tenant);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${demo.baseUrl}/demo?tenant=${tenant}&user=alice`);
      await page.waitForFunction(() => (document.getElementById("token") as HTMLTextAreaElement).value.length > 0, undefined, { timeout: 20_000 });
      const partPuts = await partPutsCounter();
      const before = await partPuts();

      // 20,000,000 bytes in 8 MiB parts: 1 and 2 are held back in the browser (left hanging, they
      // never reach storage), 3 lands. Then the tab goes away with the upload half done.
      const heldBack = (url: URL) => url.searchParams.has("uploadId") && url.searchParams.get("partNumber") !== "3";
      await page.route(heldBack, () => undefined);
      await page.selectOption("#objectClass", "IMPORT_FILE");
      await page.setInputFiles("#file", fixture("ledger.csv", csvOf(20_000_000)));
      await page.click("#upload");
      const firstObject = async () => (await rest("GET", "/api/v1/uploads", { token })).body.storedObjects?.[0]?.id as string | undefined;
      await expect.poll(firstObject, { timeout: 20_000 }).toBeTruthy();
      const objectId = (await firstObject())!;
      const heldParts = async () => ((await rest("GET", `/api/v1/uploads/${objectId}/parts`, { token })).body.parts ?? []).map((p: { partNumber: number }) => p.partNumber);
      await expect.poll(heldParts, { timeout: 30_000 }).toEqual([3]);
      // Closed, not reloaded: a reload would let Playwright send the held-back requests on. The
      // same page opened again in the same profile is what a reload or a crashed tab comes back to.
      await page.close();
      const again = await context.newPage();
      const sentAfterReload: string[] = [];
      again.on("request", (request) => {
        const url = new URL(request.url());
        if (request.method() === "PUT" && url.searchParams.has("uploadId")) sentAfterReload.push(url.searchParams.get("partNumber")!);
      });
      await again.goto(`${demo.baseUrl}/demo?tenant=${tenant}&user=alice`);
      await again.waitForSelector(`li.upload[data-filename="ledger.csv"]:is(${END})`, { timeout: 60_000 });
      const card = again.locator('li.upload[data-filename="ledger.csv"]');
      expect(await card.getAttribute("data-state"), await card.innerText()).toBe("ready");
      // The page's service worker controls the page opened again, and each request it passes on is
      // reported twice (by the page and by the worker): MinIO's count says how often each arrived.
      expect([...new Set(sentAfterReload)].sort()).toEqual(["1", "2"]);
      // MinIO's own count: three parts in all, each received once.
      expect((await partPuts()) - before).toBe(3);
      const objects = (await rest("GET", "/api/v1/uploads", { token })).body.storedObjects as { id: string; status: string }[];
      expect(objects.map((o) => [o.id, o.status])).toEqual([[objectId, "READY"]]);
    } finally {
      await context.close();
    }
  });
});

describe("the Temporal UI", () => {
  it("lists a tenant's upload workflows filtered by TenantId; writes docs/images/temporal-ui.png", async () => {
    const tenant = uniqueTenant("ui");
    const token = await tokenFor(tenant);
    const context = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    try {
      const page = await context.newPage();
      // Two uploads through the demo page of that tenant: one READY, one REJECTED.
      await page.goto(`${demo.baseUrl}/demo?tenant=${tenant}&user=alice`);
      await page.waitForFunction(() => (document.getElementById("token") as HTMLTextAreaElement).value.length > 0);
      for (const [name, bytes, objectClass] of [["logo.png", png(32, 32), "COMPANY_LOGO"], ["invoice.png", exe(), "GENERAL_DOCUMENT"]] as const) {
        await page.selectOption("#objectClass", objectClass);
        await page.setInputFiles("#file", fixture(name, bytes));
        await page.click("#upload");
        await page.waitForSelector(`li.upload[data-filename="${name}"]:is(${END})`, { timeout: 40_000 });
      }
      const objects = (await rest("GET", "/api/v1/uploads", { token })).body.storedObjects as { id: string; status: string }[];
      expect(objects.map((o) => o.status).sort()).toEqual(["READY", "REJECTED"]);
      const workflowId = (status: string) => lifecycleWorkflowId(tenant, objects.find((o) => o.status === status)!.id);

      const open = (query: string) => openWorkflowList(page, query);

      // By status and class: only the READY logo.
      await open(`TenantId = "${tenant}" AND ObjectStatus = "READY" AND ObjectClass = "COMPANY_LOGO"`);
      await page.getByText(workflowId("READY")).first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState("networkidle");
      expect(await page.getByText(workflowId("REJECTED")).count()).toBe(0);

      // By tenant: both, which is the screenshot of the README.
      await open(`TenantId = "${tenant}"`);
      for (const status of ["READY", "REJECTED"]) await page.getByText(workflowId(status)).first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(IMAGES, "temporal-ui.png") });

      // One object's story: its workflow's history, each step carrying its summary.
      const ready = workflowId("READY");
      const runId = await withTemporal(async (client) => (await client.workflow.getHandle(ready).describe()).runId);
      await openWorkflowHistory(page, ready, runId);
      // The page scrolls inside its own container: a tall viewport shows the whole history.
      await page.setViewportSize({ width: 1400, height: 1500 });
      await page.getByText("complete: compare size and checksum", { exact: false }).first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(IMAGES, "object-history.png") });
    } finally {
      await context.close();
    }
  });
});
