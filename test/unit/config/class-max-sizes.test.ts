/** STORAGE_CLASS_MAX_FILE_SIZE_BYTES (src/config/class-max-sizes.ts) and the initiate check that applies it. */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.js";
import { checkUploadDeclaration } from "../../../src/domain/files/upload-request.js";
import { SAFE_MODE_ENV } from "../../support/config-env.js";

const MiB = 1024 * 1024;
const declaration = (fileSize: number) => ({
  objectClass: "GENERAL_DOCUMENT",
  contentType: "application/pdf",
  ownerEntityType: "User",
  ownerEntityId: "u1",
  originalFilename: "big.pdf",
  fileSize,
});

describe("STORAGE_CLASS_MAX_FILE_SIZE_BYTES", () => {
  it("is empty when unset: every class keeps its table maximum", () => {
    expect(parseConfig(SAFE_MODE_ENV).storage.classMaxFileSizeBytes).toEqual({});
  });

  it("takes CLASS=bytes pairs", () => {
    const env = { ...SAFE_MODE_ENV, STORAGE_CLASS_MAX_FILE_SIZE_BYTES: "GENERAL_DOCUMENT=209715200, IMPORT_FILE=104857600" };
    expect(parseConfig(env).storage.classMaxFileSizeBytes).toEqual({ GENERAL_DOCUMENT: 200 * MiB, IMPORT_FILE: 100 * MiB });
  });

  it("stops the start on an unknown class, a bad pair, zero or a class named twice, naming the variable", () => {
    for (const value of ["NO_SUCH_CLASS=1", "GENERAL_DOCUMENT", "GENERAL_DOCUMENT=20MB", "GENERAL_DOCUMENT=0", "REPORT=1,REPORT=2"]) {
      expect(() => parseConfig({ ...SAFE_MODE_ENV, STORAGE_CLASS_MAX_FILE_SIZE_BYTES: value }), value).toThrow(/^STORAGE_CLASS_MAX_FILE_SIZE_BYTES: /);
    }
  });
});

describe("a configured class maximum at initiate", () => {
  it("allows what the configured maximum allows, within the global maximum", () => {
    expect(checkUploadDeclaration(declaration(200 * MiB), 1 << 30, { GENERAL_DOCUMENT: 200 * MiB }).maxSizeBytes).toBe(200 * MiB);
  });

  it("refuses above the table's maximum without configuration, above the configured one with it, and above the global one in any case", () => {
    expect(() => checkUploadDeclaration(declaration(21 * MiB), 1 << 30)).toThrow(/exceeds the limit of 20971520 bytes/);
    expect(() => checkUploadDeclaration(declaration(200 * MiB + 1), 1 << 30, { GENERAL_DOCUMENT: 200 * MiB })).toThrow(/exceeds the limit of 209715200 bytes/);
    expect(() => checkUploadDeclaration(declaration(100 * MiB), 50 * MiB, { GENERAL_DOCUMENT: 200 * MiB })).toThrow(/exceeds the limit of 52428800 bytes/);
  });

  it("leaves other classes at their table maximum", () => {
    expect(() => checkUploadDeclaration({ ...declaration(21 * MiB), objectClass: "STATEMENT" }, 1 << 30, { GENERAL_DOCUMENT: 200 * MiB })).toThrow(/exceeds the limit of 20971520 bytes/);
  });
});
