/**
 * The Uppy page (/demo/uppy: @uppy/core and @uppy/aws-s3 with the client package's adapter) in
 * headless Chromium, against the suite's MinIO and Temporal through an API and worker of this
 * file's own started with DEVELOPMENT_MODE=true (the page is served only then). One page: a file
 * above the multipart threshold goes up in parts, a small one as one PUT, and both end READY; a
 * type the class refuses fails with the API's reason.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planParts } from "../../src/domain/files/part-plan.js";
import { png } from "../fixtures/files/index.js";
import { launchChromium } from "../support/chromium.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { csvOf } from "../support/multipart.js";
import { startProcessPair, type ProcessPair } from "../support/process-pair.js";

const MIB = 1024 * 1024;
/** The stack's defaults (STORAGE_MULTIPART_THRESHOLD_BYTES, STORAGE_MULTIPART_PART_SIZE_BYTES), which the page's adapter assumes. */
const THRESHOLD = 16 * MIB;
const PART_SIZE = 8 * MIB;

let browser: Browser;
let demo: ProcessPair;
let context: BrowserContext;
let page: Page;
const tenant = uniqueTenant("uppy");
const files = mkdtempSync(path.join(tmpdir(), "uppy-test-"));
/** The storage PUTs the page made: the part number of each UploadPart, or "whole" for a single PUT. */
const puts: { part: string }[] = [];

/** A valid IMPORT_FILE CSV of `size` bytes, written for the page's file input. */
function csvFile(name: string, size: number): { file: string; bytes: number } {
  const file = path.join(files, name);
  writeFileSync(file, csvOf(size));
  return { file, bytes: size };
}

beforeAll(async () => {
  browser = await launchChromium();
  demo = await startProcessPair("uppy", { DEVELOPMENT_MODE: "true" });
  context = await browser.newContext();
  page = await context.newPage();
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() !== "PUT" || url.origin === demo.baseUrl) return;
    puts.push({ part: url.searchParams.get("partNumber") ?? "whole" });
  });
  await page.goto(`${demo.baseUrl}/demo/uppy?tenant=${tenant}&user=alice`);
  await page.waitForSelector("#file:not([disabled])", { timeout: 20_000 });
  await page.selectOption("#objectClass", "IMPORT_FILE");
}, 180_000);

afterAll(async () => {
  await context?.close();
  await demo?.supervisor.stopAll();
  await browser?.close();
  rmSync(files, { recursive: true, force: true });
});

/** Chooses the file on the page (Uppy uploads it at once) and waits for its object's end status. */
async function uploadOnPage(file: string, timeout = 40_000): Promise<{ state: string | null; status: string | null; objectId: string; parts: string | null; text: string }> {
  const name = path.basename(file);
  await page.setInputFiles("#file", file);
  const row = page.locator(`li.file[data-filename="${name}"]`);
  await page.waitForSelector(`li.file[data-filename="${name}"]:is([data-status], [data-state="error"])`, { timeout });
  return {
    state: await row.getAttribute("data-state"),
    status: await row.getAttribute("data-status"),
    objectId: (await row.getAttribute("data-object-id")) ?? "",
    parts: await row.getAttribute("data-parts"),
    text: await row.innerText(),
  };
}

describe("the Uppy page", () => {
  it("uploads a file above the multipart threshold in parts, and it ends READY", { timeout: 120_000 }, async () => {
    const { file, bytes } = csvFile("big-import.csv", 18 * MIB);
    const plan = planParts(bytes, THRESHOLD, PART_SIZE)!;
    expect(plan.partCount).toBe(3);
    const uploaded = await uploadOnPage(file, 100_000);
    expect(uploaded.status, uploaded.text).toBe("READY");
    // Uppy sent the server's plan: one UploadPart PUT per part, numbered 1..3, and no single PUT.
    expect(puts.map((put) => put.part)).toEqual(["1", "2", "3"]);
    expect(uploaded.parts).toBe("3");
    const object = await rest("GET", `/api/v1/uploads/${uploaded.objectId}`, { token: await tokenFor(tenant) });
    expect(object.body.storedObject).toMatchObject({ status: "READY", fileSize: String(bytes), originalFilename: "big-import.csv" });
  });

  it("uploads a small file as one PUT, and it ends READY", async () => {
    const before = puts.length;
    const { file, bytes } = csvFile("small-import.csv", 4096);
    const uploaded = await uploadOnPage(file);
    expect(uploaded.status, uploaded.text).toBe("READY");
    expect(puts.slice(before).map((put) => put.part)).toEqual(["whole"]);
    expect(uploaded.parts).toBe("0");
    const object = await rest("GET", `/api/v1/uploads/${uploaded.objectId}`, { token: await tokenFor(tenant) });
    expect(object.body.storedObject).toMatchObject({ status: "READY", fileSize: String(bytes), originalFilename: "small-import.csv" });
  });

  it("fails a file the class refuses with the API's reason, before any byte is sent", async () => {
    const before = puts.length;
    const file = path.join(files, "photo.png");
    writeFileSync(file, png(64, 64));
    const uploaded = await uploadOnPage(file);
    expect(uploaded.state).toBe("error");
    expect(uploaded.status).toBeNull();
    expect(uploaded.text).toContain("CONTENT_TYPE_NOT_ALLOWED");
    expect(puts.length).toBe(before);
  });
});
