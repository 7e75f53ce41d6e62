import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { downloadFilename, extensionContradiction, extensionOf, hasHiddenCharacters, normalizeFilename } from "../../../src/domain/files/filename.js";
import { checkUploadDeclaration } from "../../../src/domain/files/upload-request.js";

// A class that allows the type: logos take every image, imports every spreadsheet.
const classFor = (type: string) => (type.startsWith("image/") ? "COMPANY_LOGO" : type === "application/pdf" ? "GENERAL_DOCUMENT" : "IMPORT_FILE");
const declaration = (originalFilename: string, contentType = "application/pdf") => ({
  objectClass: classFor(contentType),
  ownerEntityType: "User",
  ownerEntityId: "u1",
  originalFilename,
  contentType,
  fileSize: 10,
});

function refusal(originalFilename: string, contentType?: string): AppError | undefined {
  try {
    checkUploadDeclaration(declaration(originalFilename, contentType), 1 << 30);
    return undefined;
  } catch (error) {
    return error as AppError;
  }
}

describe("hidden characters in file names", () => {
  it.each([
    ["U+202E right-to-left override", "invoice\u202Efdp.exe"],
    ["U+202A left-to-right embedding", "a\u202Ab.pdf"],
    ["U+202D left-to-right override", "a\u202Db.pdf"],
    ["U+2066 left-to-right isolate", "a\u2066b.pdf"],
    ["U+2069 pop directional isolate", "a\u2069b.pdf"],
    ["U+200F right-to-left mark", "a\u200Fb.pdf"],
    ["U+200B zero-width space", "a\u200Bb.pdf"],
    ["U+FEFF zero-width no-break space", "\uFEFFa.pdf"],
    ["U+0007 bell", "a\u0007b.pdf"],
    ["U+0085 next line (C1)", "a\u0085b.pdf"],
  ])("refuses %s at initiate (INVALID_FILENAME on originalFilename)", (_name, filename) => {
    expect(hasHiddenCharacters(filename)).toBe(true);
    const error = refusal(filename);
    expect(error?.reason).toBe("INVALID_FILENAME");
    expect(error?.violations.map((v) => v.field)).toEqual(["originalFilename"]);
  });

  it("accepts ordinary names in any script", () => {
    for (const name of ["Résumé 2026.pdf", "отчёт.pdf", "تقرير.pdf", "報告書.pdf", "a b (1).pdf"]) {
      expect(hasHiddenCharacters(name), name).toBe(false);
      expect(refusal(name), name).toBeUndefined();
    }
  });

  it("checks the name in NFC: one spelling, one byte length", () => {
    expect(normalizeFilename("Re\u0301sume\u0301.pdf")).toBe("R\u00e9sum\u00e9.pdf");
    // 85 decomposed "é" and ".pdf" are 259 bytes, over the 255 allowed; in NFC they are 174.
    expect(refusal("e\u0301".repeat(85) + ".pdf")).toBeUndefined();
  });
});

describe("the extension against the declared type", () => {
  it.each([
    ["invoice.pdf.exe", "application/pdf"],
    ["photo.svg", "image/png"],
    ["report.html", "application/pdf"],
    ["data.xlsx", "text/csv"],
    ["sheet.xlsm", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ["PHOTO.PNG", "image/jpeg"],
  ])("refuses %s declared %s (FILENAME_EXTENSION_MISMATCH)", (name, type) => {
    const error = refusal(name, type);
    expect(error?.reason).toBe("FILENAME_EXTENSION_MISMATCH");
    expect(error?.violations.map((v) => v.field)).toEqual(["originalFilename"]);
  });

  it.each([
    ["invoice.pdf", "application/pdf"],
    ["INVOICE.PDF", "application/pdf"],
    ["photo.jpeg", "image/jpeg"],
    ["photo.JPG", "image/jpeg"],
    ["scan 12.03.2024", "application/pdf"],
    ["notes.txt", "text/csv"],
    ["file.bin", "image/png"],
    ["archive", "application/pdf"],
    [".profile", "application/pdf"],
  ])("accepts %s declared %s", (name, type) => {
    expect(refusal(name, type)).toBeUndefined();
  });

  it("reads the last extension only", () => {
    expect(extensionOf("a.tar.GZ")).toBe("gz");
    expect(extensionOf("name.")).toBeUndefined();
    expect(extensionContradiction("a.exe.pdf", "application/pdf")).toBeUndefined();
  });
});

describe("the name a download is saved under", () => {
  it("keeps a name that ends in the verified type's extension", () => {
    expect(downloadFilename("Résumé 2026.pdf", "application/pdf")).toBe("Résumé 2026.pdf");
    expect(downloadFilename("me.JPEG", "image/jpeg")).toBe("me.JPEG");
  });

  it("appends the verified type's extension otherwise", () => {
    expect(downloadFilename("report", "application/pdf")).toBe("report.pdf");
    expect(downloadFilename("notes.txt", "text/csv")).toBe("notes.txt.csv");
    expect(downloadFilename("name.", "image/png")).toBe("name.png");
  });

  it("drops hidden characters a name stored before they were refused may hold", () => {
    expect(downloadFilename("invoice\u202Efdp.exe", "application/pdf")).toBe("invoicefdp.exe.pdf");
    expect(downloadFilename("\u200B", "image/png")).toBe("download.png");
  });
});
