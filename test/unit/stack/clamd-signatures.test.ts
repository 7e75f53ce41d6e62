/**
 * The signature database the stack gives clamd (src/stack/clamd-signatures.ts): the .ndb and .hdb
 * lines, and the unsigned CVD (`daily.cud`) they are packed in, read back here as clamd reads it
 * (libclamav cvd.c: a 512-byte header, then a plain tar whose first member is COPYING, whose
 * daily.info repeats the header and lists each file's size and SHA-256). The integration test
 * test/integration/malware-scanner.test.ts shows the real clamd loading it.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EICAR, EICAR_SIGNATURE, hashSignature, reportedName, signatureDatabase, signatureFiles } from "../../../src/stack/clamd-signatures.js";

const builtAt = new Date("2026-11-26T08:00:00Z");

/** The members of the database's tar, by name, in order. */
function members(database: Uint8Array): Map<string, Buffer> {
  const bytes = Buffer.from(database);
  const files = new Map<string, Buffer>();
  let at = 512;
  while (at + 512 <= bytes.length && bytes[at] !== 0) {
    const field = bytes.subarray(at, at + 100);
    const name = field.subarray(0, field.indexOf(0)).toString("latin1");
    const size = parseInt(bytes.subarray(at + 124, at + 136).toString("latin1"), 8);
    files.set(name, bytes.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

const header = (database: Uint8Array) => Buffer.from(database.subarray(0, 512)).toString("latin1").trimEnd();

describe("signatureFiles", () => {
  it("writes the EICAR body signature for any file type at any offset", () => {
    const { ndb, hdb } = signatureFiles([{ kind: "body", name: EICAR_SIGNATURE, hex: Buffer.from(EICAR, "latin1").toString("hex") }]);
    expect(ndb).toBe(`Files-Test.EICAR:0:*:${Buffer.from(EICAR, "latin1").toString("hex")}\n`);
    expect(hdb).toBe("");
  });

  it("writes a hash signature as md5:size:name", () => {
    const signature = hashSignature("Files-Test.Added-1", Buffer.from("hello"));
    expect(signatureFiles([signature]).hdb).toBe(`${createHash("md5").update("hello").digest("hex")}:5:Files-Test.Added-1\n`);
  });

  it("refuses names and patterns that would break a line of the database", () => {
    expect(() => signatureFiles([{ kind: "body", name: "a:b", hex: "00" }])).toThrow(/name/);
    expect(() => signatureFiles([{ kind: "body", name: "x", hex: "0" }])).toThrow(/hex/);
    expect(() => signatureFiles([{ kind: "hash", name: "x", md5: "zz", size: 1 }])).toThrow(/md5/);
  });
});

describe("signatureDatabase", () => {
  it("starts with a CVD header carrying the version, the signature count and the build time", () => {
    const fields = header(signatureDatabase({ version: 7, builtAt })).split(":");
    expect(fields[0]).toBe("ClamAV-VDB");
    expect(fields[2]).toBe("7");
    expect(fields[3]).toBe("1");
    expect(fields[8]).toBe(String(builtAt.getTime() / 1000));
    expect(fields).toHaveLength(9);
  });

  it("is a plain tar led by COPYING, with daily.info listing each signature file's size and SHA-256", () => {
    const database = signatureDatabase({ version: 2, builtAt, extra: [hashSignature("Files-Test.Added-1", Buffer.from("hello"))] });
    const files = members(database);
    expect([...files.keys()]).toEqual(["COPYING", "daily.info", "daily.ndb", "daily.hdb"]);
    const info = files.get("daily.info")!.toString("latin1").trimEnd().split("\n");
    expect(info[0]).toBe(header(database));
    for (const name of ["daily.ndb", "daily.hdb"]) {
      const data = files.get(name)!;
      expect(info).toContain(`${name}:${data.length}:${createHash("sha256").update(data).digest("hex")}`);
    }
    expect(files.get("daily.ndb")!.toString("latin1")).toContain(`${EICAR_SIGNATURE}:0:*:`);
    expect(header(database).split(":")[3]).toBe("2");
  });

  it("leaves daily.hdb out when there is no hash signature", () => {
    expect([...members(signatureDatabase({ version: 1, builtAt })).keys()]).toEqual(["COPYING", "daily.info", "daily.ndb"]);
  });

  it("refuses a version clamd could not hold", () => {
    expect(() => signatureDatabase({ version: 0, builtAt })).toThrow(/version/);
    expect(() => signatureDatabase({ version: 2 ** 32, builtAt })).toThrow(/version/);
  });

  it("names what clamd reports for a signature of an unsigned database", () => {
    expect(reportedName(EICAR_SIGNATURE)).toBe("Files-Test.EICAR.UNOFFICIAL");
  });
});
