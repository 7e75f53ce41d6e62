/**
 * The signature database that development and tests give clamd, written by the project (no
 * freshclam: its mirrors are out of reach here, and a 200 MB database would make every start slow).
 *
 * `Files-Test.EICAR` is a body signature (.ndb) for the 68 bytes of the EICAR test file at any
 * offset of any file type. ClamAV matches body signatures against a file's raw bytes and against
 * everything it unpacks from it, so the one signature finds EICAR as a whole file, in a CSV cell, in
 * a PDF stream (raw or FlateDecode), in an XLSX part (stored or deflated) and in a JPEG comment.
 *
 * The signatures are packed as an unsigned CVD (`daily.cud`): a 512-byte header with a version and
 * a build time, then a tar of `daily.info` (the list of files with sizes and SHA-256) and the
 * signature files. Loose .ndb/.hdb files would be found as well, but only a `daily.*` database sets
 * the version and time that clamd's VERSION reports, and the re-scan on a signature change
 * (issue 23) keys on that version: adding a signature is writing the database again with a higher
 * version, then RELOAD. Signatures from an unsigned database are not official, so clamd reports
 * their names with `.UNOFFICIAL` appended (`Files-Test.EICAR.UNOFFICIAL`).
 */
import { createHash } from "node:crypto";

/** The EICAR anti-virus test file (eicar.org): harmless, detected by every engine. */
export const EICAR = "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*";

export const EICAR_SIGNATURE = "Files-Test.EICAR";

/** The name clamd reports for a signature of this database (see above). */
export function reportedName(signature: string): string {
  return `${signature}.UNOFFICIAL`;
}

export type Signature =
  /** .ndb: `hex` at any offset of any file type, or of anything unpacked from it. */
  | { kind: "body"; name: string; hex: string }
  /** .hdb: a whole file (or unpacked part) with this MD5 and size. */
  | { kind: "hash"; name: string; md5: string; size: number };

export const BASE_SIGNATURES: readonly Signature[] = [
  { kind: "body", name: EICAR_SIGNATURE, hex: Buffer.from(EICAR, "latin1").toString("hex") },
];

/** A hash signature for exactly these bytes (a test marks a clean file as malware with it). */
export function hashSignature(name: string, bytes: Uint8Array): Signature {
  return { kind: "hash", name, md5: createHash("md5").update(bytes).digest("hex"), size: bytes.length };
}

const NAME = /^[A-Za-z0-9._-]{1,100}$/;

function line(signature: Signature): string {
  if (!NAME.test(signature.name)) throw new Error(`signature name "${signature.name}": letters, digits, ".", "_" or "-" only`);
  if (signature.kind === "body") {
    if (!/^([0-9a-f]{2})+$/.test(signature.hex)) throw new Error(`signature ${signature.name}: hex must be lowercase byte pairs`);
    // Target type 0 (any file), offset * (anywhere).
    return `${signature.name}:0:*:${signature.hex}\n`;
  }
  if (!/^[0-9a-f]{32}$/.test(signature.md5)) throw new Error(`signature ${signature.name}: md5 must be 32 lowercase hex digits`);
  return `${signature.md5}:${signature.size}:${signature.name}\n`;
}

/** The text of the .ndb (body) and .hdb (hash) files for these signatures. */
export function signatureFiles(signatures: readonly Signature[]): { ndb: string; hdb: string } {
  const ndb = signatures.filter((each) => each.kind === "body").map(line).join("");
  const hdb = signatures.filter((each) => each.kind === "hash").map(line).join("");
  return { ndb, hdb };
}

export interface DatabaseOptions {
  /** What VERSION reports after a (re)load; a new set of signatures needs a higher one. */
  version: number;
  builtAt: Date;
  /** Added to BASE_SIGNATURES. */
  extra?: readonly Signature[];
}

/** Functionality level the database needs: 1 loads on every engine that reads .cud. */
const FUNCTIONALITY_LEVEL = 1;

/** The bytes of `daily.cud`. */
export function signatureDatabase(options: DatabaseOptions): Uint8Array {
  if (!Number.isInteger(options.version) || options.version < 1 || options.version > 0xffff_ffff) {
    throw new Error(`database version must be an integer from 1 to 2^32-1, got ${options.version}`);
  }
  const signatures = [...BASE_SIGNATURES, ...(options.extra ?? [])];
  const { ndb, hdb } = signatureFiles(signatures);
  const files = [
    { name: "daily.ndb", data: Buffer.from(ndb, "latin1") },
    ...(hdb === "" ? [] : [{ name: "daily.hdb", data: Buffer.from(hdb, "latin1") }]),
  ];
  const seconds = Math.floor(options.builtAt.getTime() / 1000);
  const header = cvdHeader(options.version, signatures.length, seconds, options.builtAt);
  // .info: the header again (clamd checks they agree), then each file's size and SHA-256.
  const info = [
    header,
    ...files.map((file) => `${file.name}:${file.data.length}:${createHash("sha256").update(file.data).digest("hex")}`),
  ].join("\n");
  // A first member named COPYING tells clamd the tar is not gzipped (libclamav cvd.c).
  const tar = ustar([
    { name: "COPYING", data: Buffer.from("Test signatures written by files-and-fields (src/stack/clamd-signatures.ts).\n", "latin1") },
    { name: "daily.info", data: Buffer.from(`${info}\n`, "latin1") },
    ...files,
  ]);
  return Buffer.concat([Buffer.from(header.padEnd(512, " "), "latin1"), tar]);
}

/**
 * `ClamAV-VDB:time:version:signatures:level:md5:dsig:builder:seconds`. An unsigned database's MD5
 * and digital signature are not checked, but must be present for the header to parse.
 */
function cvdHeader(version: number, count: number, seconds: number, builtAt: Date): string {
  // The time field is for people; ':' separates the fields, so none may appear in it.
  const time = builtAt.toISOString().slice(0, 16).replace(":", "-");
  return `ClamAV-VDB:${time}:${version}:${count}:${FUNCTIONALITY_LEVEL}:${"0".repeat(32)}:unsigned:files-and-fields:${seconds}`;
}

/** A minimal ustar archive of regular files (clamd refuses directories and slashes in names). */
function ustar(files: { name: string; data: Buffer }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const file of files) {
    const header = Buffer.alloc(512);
    header.write(file.name, 0, 100, "latin1");
    header.write("0000644\0", 100, "latin1");
    header.write("0000000\0", 108, "latin1");
    header.write("0000000\0", 116, "latin1");
    header.write(`${file.data.length.toString(8).padStart(11, "0")}\0`, 124, "latin1");
    header.write("00000000000\0", 136, "latin1");
    header.write("        ", 148, "latin1");
    header.write("0", 156, "latin1");
    header.write("ustar\0", 257, "latin1");
    header.write("00", 263, "latin1");
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
    blocks.push(header, file.data, Buffer.alloc((512 - (file.data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}
