import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileFiles, jpegWithExifAndXmp, latin1, nestedSvg, pdf, png, pngWithXmp, secondReaderFiles, text } from "../fixtures/files/index.js";
import { biffWorkbook, objectStream, SHEET_TYPES, xls, xlsx } from "../fixtures/files/index.js";
import { rest, tokenFor, uniqueTenant } from "../support/clients.js";
import { initiate, put, uploadThrough } from "../support/uploads.js";

const classFor: Record<string, string> = {
  "image/jpeg": "GENERAL_DOCUMENT",
  "image/png": "GENERAL_DOCUMENT",
  "image/webp": "USER_PROFILE_PHOTO",
  "image/svg+xml": "COMPANY_LOGO",
  "application/pdf": "REPORT",
  "text/csv": "IMPORT_FILE",
  "application/vnd.ms-excel": "IMPORT_FILE",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "IMPORT_FILE",
};

describe("hostile files through the real flow", () => {
  // Every tenth entry of the corpus (the unit tests run all of them against the scanner).
  const sample = hostileFiles.filter((f, i) => i % 10 === 0 && f.bytes.length > 0 && classFor[f.contentType]);
  it.each(sample.map((f) => [f.name, f] as const))("rejects %s with its reason", async (_name, file) => {
    const object = await uploadThrough(await tokenFor(uniqueTenant()), {
      objectClass: file.objectClass ?? classFor[file.contentType],
      contentType: file.contentType,
      bytes: file.bytes,
    });
    expect(object.status).toBe("REJECTED");
    const failed = object.scanResult.checks.filter((c: any) => !c.passed);
    expect(failed.map((c: any) => c.reason)).toContain(file.expectedReason);
  });

  it("refuses a zero-byte upload at initiate", async () => {
    const res = await initiate(await tokenFor(uniqueTenant()), { objectClass: "REPORT", contentType: "application/pdf", bytes: new Uint8Array() });
    expect(res.status).toBe(400);
  });
});

describe("files built for a second reader (issue 22) through the real flow", () => {
  it.each(secondReaderFiles.map((f) => [f.name, f] as const))("rejects %s with its reason", async (_name, file) => {
    const object = await uploadThrough(await tokenFor(uniqueTenant()), {
      objectClass: file.objectClass ?? classFor[file.contentType],
      contentType: file.contentType,
      bytes: file.bytes,
    });
    expect(object.status).toBe("REJECTED");
    const failed = object.scanResult.checks.filter((c: any) => !c.passed);
    expect(failed).toContainEqual(expect.objectContaining({ name: file.expectedCheck, reason: file.expectedReason, message: expect.any(String) }));
  });

  it("keeps a JPEG with EXIF and XMP and a PNG with XMP READY", async () => {
    const token = await tokenFor(uniqueTenant());
    for (const [contentType, bytes] of [["image/jpeg", jpegWithExifAndXmp()], ["image/png", pngWithXmp(true)]] as const) {
      const object = await uploadThrough(token, { objectClass: "GENERAL_DOCUMENT", contentType, bytes });
      expect(object.status, contentType).toBe("READY");
    }
  });
});

describe("signed URLs cannot be altered", () => {
  async function readyObject() {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, { objectClass: "REPORT", contentType: "application/pdf", bytes: pdf() });
    const res = await rest("POST", `/api/v1/uploads/${object.id}/download-url`, { token });
    return { token, object, url: new URL(res.body.downloadUrl) };
  }

  it("refuses a download URL whose key, expiry or signature was changed", async () => {
    const { url, object } = await readyObject();
    expect((await fetch(url)).status).toBe(200);
    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace(object.id, "00000000-0000-7000-8000-000000000001");
    const longer = new URL(url);
    longer.searchParams.set("X-Amz-Expires", "604800");
    const forged = new URL(url);
    const signature = forged.searchParams.get("X-Amz-Signature")!;
    forged.searchParams.set("X-Amz-Signature", signature.replace(/^./, (c) => (c === "a" ? "b" : "a")));
    const otherDisposition = new URL(url);
    otherDisposition.searchParams.set("response-content-disposition", "inline");
    for (const tampered of [otherKey, longer, forged, otherDisposition]) {
      expect((await fetch(tampered)).status, tampered.toString()).toBe(403);
    }
  });

  it("refuses an upload URL whose expiry or signature was changed, or with another size", async () => {
    const token = await tokenFor(uniqueTenant());
    const bytes = png(4, 4);
    const started = await initiate(token, { objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes });
    const longer = new URL(started.body.uploadUrl);
    longer.searchParams.set("X-Amz-Expires", "86400");
    expect((await put({ ...started.body, uploadUrl: longer.toString() }, bytes)).status).toBe(403);
    const bigger = await fetch(started.body.uploadUrl, {
      method: "PUT",
      headers: { ...started.body.uploadHeaders, "content-length": String(bytes.length + 1) },
      body: Buffer.concat([Buffer.from(bytes), Buffer.from([0])]),
    }).catch(() => ({ status: 0 }));
    expect(bigger.status).not.toBe(200);
    expect((await put(started.body, bytes)).status).toBe(200);
  });
});

/** Every RPC that takes an object id, as REST calls. */
const idCalls: [string, (id: string) => string, unknown?][] = [
  ["GET", (id) => `/api/v1/uploads/${id}`],
  ["DELETE", (id) => `/api/v1/uploads/${id}`],
  ["POST", (id) => `/api/v1/uploads/${id}/complete`, {}],
  ["POST", (id) => `/api/v1/uploads/${id}/refresh-upload-url`, {}],
  ["POST", (id) => `/api/v1/uploads/${id}/download-url`],
  ["POST", (id) => `/api/v1/uploads/${id}/legal-hold`, { reason: "x" }],
  ["DELETE", (id) => `/api/v1/uploads/${id}/legal-hold`],
  ["POST", (id) => `/api/v1/uploads/${id}/restore`, {}],
  ["GET", (id) => `/api/v1/uploads/${id}/audit`],
];

describe("tenant isolation as a property", () => {
  it("an id of another tenant behaves exactly as an id that does not exist, on every RPC that takes an id", async () => {
    const owner = await tokenFor(uniqueTenant());
    const ready = await uploadThrough(owner, { objectClass: "USER_PROFILE_PHOTO", contentType: "image/png", bytes: png(5, 5) });
    const pending = (await initiate(owner, { objectClass: "GENERAL_DOCUMENT", contentType: "image/png", bytes: png(2, 2) })).body.storedObject;
    const intruder = await tokenFor(uniqueTenant());
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...idCalls), fc.constantFrom(ready.id, pending.id), fc.uuid({ version: 7 }), async ([method, path, body], theirs, missing) => {
        const foreign = await rest(method, path(theirs), { token: intruder, body });
        const absent = await rest(method, path(missing), { token: intruder, body });
        expect(foreign.status).toBe(absent.status);
        expect(foreign.body?.code).toBe(absent.body?.code);
        expect(foreign.body?.message?.replace(theirs, "ID")).toBe(absent.body?.message?.replace(missing, "ID"));
      }),
      { numRuns: 40 },
    );
    const after = await rest("GET", `/api/v1/uploads/${ready.id}`, { token: owner });
    expect(after.body.storedObject).toMatchObject({ status: "READY", isLegalHold: false, isCurrent: true });
  });
});

describe("request fuzzing", () => {
  const anyJson = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }));
  const initiateBody = fc.record(
    {
      objectClass: fc.oneof(fc.constantFrom("USER_PROFILE_PHOTO", "IMPORT_FILE", "X", ""), anyJson),
      ownerEntityType: fc.oneof(fc.constantFrom("User", "../etc", "A".repeat(70)), anyJson),
      ownerEntityId: fc.oneof(fc.constantFrom("u-1", "a/b", "", "x".repeat(200)), anyJson),
      originalFilename: fc.oneof(fc.string(), fc.constantFrom("a\u0000b", "é".repeat(200)), anyJson),
      contentType: fc.oneof(fc.constantFrom("image/png", "text/csv", "text/html"), anyJson),
      fileSize: fc.oneof(fc.integer({ min: -10, max: 60_000_000 }), fc.constantFrom("9223372036854775807", "1e3", "-1"), anyJson),
      checksum: anyJson,
    },
    { requiredKeys: [] },
  );

  it("random initiate bodies never produce a 500 and never leave a row behind when refused", async () => {
    const tenant = uniqueTenant();
    const token = await tokenFor(tenant);
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(initiateBody, async (body) => {
        const res = await rest("POST", "/api/v1/uploads/initiate", { token, body });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        if (res.status === 200) accepted++;
        else expect(res.body.code).toMatch(/invalid_argument|resource_exhausted/);
      }),
      { numRuns: 150 },
    );
    const list = await rest("GET", "/api/v1/uploads?pageSize=500", { token });
    expect(list.body.storedObjects).toHaveLength(accepted);
  });

  it("random paths, query strings and bodies on every route never produce a 500", async () => {
    const token = await tokenFor(uniqueTenant());
    const routes = [
      ...idCalls.map(([m, p]) => [m, p] as const),
      ["GET", () => "/api/v1/uploads"] as const,
      ["GET", (x: string) => `/api/v1/custom-fields/${x}`] as const,
      ["GET", (x: string) => `/api/v1/customers/${x}`] as const,
      ["PATCH", (x: string) => `/api/v1/custom-fields/${x}`] as const,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }).map(encodeURIComponent), fc.constant("%00")),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
        fc.option(anyJson),
        async ([method, path], id, query, body) => {
          const qs = new URLSearchParams(query).toString();
          const sendable = method === "GET" ? undefined : (body ?? undefined);
          const res = await rest(method, `${path(id)}${qs ? `?${qs}` : ""}`, { token, body: sendable });
          expect(res.status, `${method} ${path(id)}?${qs} -> ${JSON.stringify(res.body)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("content findings through the REST API", () => {
  it("keeps an import CSV with formula cells READY and shows csv_formula_cells; refuses a PDF with /JavaScript", async () => {
    const token = await tokenFor(uniqueTenant());
    const flagged = await uploadThrough(token, { objectClass: "IMPORT_FILE", contentType: "text/csv", bytes: text("name,amount\nx,=cmd|' /C calc'!A0\n") });
    expect(flagged.status).toBe("READY");
    const read = await rest("GET", `/api/v1/uploads/${flagged.id}`, { token });
    expect(read.body.storedObject.scanResult.checks).toContainEqual(expect.objectContaining({ name: "csv_formula_cells", passed: true, reason: "CSV_FORMULA_CELLS" }));
    const script = await uploadThrough(token, { objectClass: "REPORT", contentType: "application/pdf", bytes: pdf({ embedded: latin1("<< /S /JavaScript /JS (app.alert(1)) >>") }) });
    expect(script.status).toBe("REJECTED");
    expect(script.scanResult.checks).toContainEqual(expect.objectContaining({ name: "pdf_active_content", passed: false, reason: "PDF_JAVASCRIPT" }));
  });
});

describe("SVG parse cost through the real flow", () => {
  it("rejects the 700 KB logo of 100 000 nested groups with SVG_TOO_DEEP (it used to pass after minutes of CPU)", async () => {
    const token = await tokenFor(uniqueTenant());
    const object = await uploadThrough(token, { objectClass: "COMPANY_LOGO", contentType: "image/svg+xml", bytes: nestedSvg(100_000) });
    expect(object.status).toBe("REJECTED");
    expect(object.scanResult.checks).toContainEqual(expect.objectContaining({ name: "svg_safety", passed: false, reason: "SVG_TOO_DEEP" }));
  });
});

describe("documents read as their consumer reads them, through the real flow", () => {
  const cases = [
    {
      name: "a PDF with JavaScript in a compressed object stream",
      objectClass: "REPORT",
      contentType: "application/pdf",
      bytes: pdf({ streams: [objectStream(["<< /Type /Action /S /JavaScript /JS (app.alert(1)) >>"])] }),
      check: "pdf_active_content",
      reason: "PDF_JAVASCRIPT",
    },
    {
      name: "a PDF with an XFA form",
      objectClass: "REPORT",
      contentType: "application/pdf",
      bytes: pdf({ streams: [objectStream(["<< /Fields [] /XFA 30 0 R >>"])] }),
      check: "pdf_active_content",
      reason: "PDF_XFA",
    },
    {
      name: "an XLSX macro sheet whose content type reads &#109;acrosheet",
      objectClass: "IMPORT_FILE",
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      bytes: xlsx({
        deflate: true,
        extraEntries: [{ name: "xl/worksheets/sheet2.xml", data: "<xm:macrosheet/>", deflate: true }],
        contentTypeOverrides: [{ part: "xl/worksheets/sheet2.xml", type: "application/vnd.ms-excel.&#109;acrosheet+xml" }],
      }),
      check: "office_structure",
      reason: "OFFICE_MACROS",
    },
    {
      name: "an XLS declaring an Excel 4.0 macro sheet",
      objectClass: "IMPORT_FILE",
      contentType: "application/vnd.ms-excel",
      bytes: xls({ workbook: biffWorkbook({ sheets: [{ name: "Sheet1" }, { name: "Auto_Open", type: SHEET_TYPES.macroSheet }] }) }),
      check: "office_structure",
      reason: "OFFICE_MACROS",
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))("rejects %s", async (_name, file) => {
    const object = await uploadThrough(await tokenFor(uniqueTenant()), { objectClass: file.objectClass, contentType: file.contentType, bytes: file.bytes });
    expect(object.status).toBe("REJECTED");
    expect(object.scanResult.checks).toContainEqual(expect.objectContaining({ name: file.check, passed: false, reason: file.reason }));
  });
});
