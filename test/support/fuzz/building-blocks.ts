/**
 * Building blocks of the request fuzzers (test/unit/rpc/fuzz-*, test/integration/fuzz-*): values
 * at the edges, junk of any JSON type, ids and page tokens in and out of format, and the outcome
 * every fuzzed call must have: a 200 or a client error with an expected code, never a 5xx.
 */
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import fc from "fast-check";
import { expect } from "vitest";

/** What the fuzzers read of a REST answer (the real and the in-memory API both give it). */
interface RestAnswer {
  status: number;
  body: any;
}

/** A JSON API call: `rest` of test/support/clients.ts (real server) or of the in-memory API. */
export type RestCaller = (method: string, path: string, call: { token: string; body?: unknown }) => Promise<RestAnswer>;

export const often = <T,>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: good as fc.Arbitrary<unknown>, weight: 4 }, { arbitrary: bad, weight: 1 });

/** A valid value with one key (existing or new) replaced by junk or an edge string, or removed. */
export const mutated = <T extends Record<string, unknown>>(valid: fc.Arbitrary<T>, keys: string[]) =>
  fc
    .tuple(valid, fc.constantFrom(...keys), fc.oneof(junk, edgeString, fc.constant(undefined)))
    .map(([body, key, value]) => {
      const copy: Record<string, unknown> = { ...body };
      if (value === undefined) delete copy[key];
      else copy[key] = value;
      return copy;
    });

/** Strings at the edges: empty, huge, NUL, lone surrogates, RTL override, emoji, prototype names. */
export const edgeString = fc.constantFrom(
  "",
  " ",
  "x".repeat(70_000),
  "é".repeat(3000),
  "😀".repeat(600),
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "\u202eevil",
  "\u200b",
  "null",
  "__proto__",
  "constructor",
  "toString",
  "'; drop table customers; --",
  "%00",
  "${jndi:ldap://x}",
);
export const text = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: "binary", maxLength: 30 }), edgeString);
/** Nested JSON junk of any type. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 3 }), edgeString, fc.constantFrom(1e308, -1e308, 2 ** 53, -0, 0.1));
export const int32ish = fc.oneof(
  fc.integer({ min: -5, max: 200 }),
  fc.constantFrom(2147483647, 2147483648, -2147483648, -2147483649, 1.5, 1e20, "12", "1e3", "0x10", "", "NaN"),
);
export const doubleish = fc.oneof(fc.double({ noNaN: false }), fc.integer(), fc.constantFrom("Infinity", "-Infinity", "NaN", "1e999", "5", "abc"));
export const dateText = fc.constantFrom("2024-01-01", "2024-02-30", "0000-01-01", "9999-12-31", "2024-1-1", "yesterday", "2024-01-01T00:00:00Z", "+275760-09-13");
/** Unknown keys next to the known ones: the API refuses them rather than ignoring them. */
export const unknownKeys = fc.option(fc.dictionary(fc.constantFrom("extra", "__proto__", "constructor", "fieldkey", "tenantId", "id", "version"), junk, { minKeys: 1, maxKeys: 2 }), { freq: 6 });
export const jsonScalar = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
export const label = fc.oneof(fc.constantFrom("Label", "Größe", "名前", "😀"), fc.string({ minLength: 1, maxLength: 40 }).filter((t) => t.trim() !== "" && !t.includes("\u0000")));

/** An id in the path: one we created, one that does not exist, or junk (encoded). */
export const pathId = (known: () => string[], format: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.nat().map((n) => known()[n % Math.max(known().length, 1)] ?? "none") },
    { weight: 2, arbitrary: format },
    { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 80 }), edgeString.filter((s) => s.length < 200), fc.constantFrom("a/b", "%2F", "..a")).map(pathSegment) },
  );

/** A non-empty path segment (`.`, `..` and empty segments would name another route); lone surrogates become invalid UTF-8. */
function pathSegment(raw: string): string {
  if (raw === "" || raw === "." || raw === "..") return "%2E%2E%2E";
  try {
    return encodeURIComponent(raw);
  } catch {
    return "%ED%A0%80";
  }
}

/** Error answers the API may give a well-authenticated caller for bad input; never a 5xx. */
export function expectClientOutcome(what: string, res: RestAnswer, codes: string[]) {
  const described = `${what} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 600)}`;
  expect(res.status, described).toBeLessThan(500);
  if (res.status === 200) return;
  // Generated bodies may exceed MAX_REQUEST_BODY_BYTES (four 70,000-character strings do): the
  // one right answer then is 413, whatever the call.
  if (res.status === 413) return expect(res.body?.code, described).toBe("resource_exhausted");
  expect(codes, described).toContain(res.body?.code);
}

export const describeCall = (method: string, path: string, body?: unknown) => `${method} ${path} ${JSON.stringify(body)?.slice(0, 400)}`;

/** A page token in the token format, with random contents bound to the right query. */
export const craftedToken = (filterKey: string) =>
  fc
    .record({
      c: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.constantFrom("+275760-09-13T00:00:00.000Z", "-271821-04-20T00:00:00.000Z", "2024", "0", "1e3", ""), fc.string({ maxLength: 10 })),
      i: fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }), fc.constantFrom("", "ffffffff-ffff-ffff-ffff-ffffffffffff", "' or 1=1 --")),
      f: fc.constant(filterKey),
    })
    .map((json) => Buffer.from(JSON.stringify(json)).toString("base64url"));

/** gRPC: typed random messages. */
export const typedText = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "binary", maxLength: 20 }), edgeString);
export const int32 = fc.oneof(fc.integer({ min: -2147483648, max: 2147483647 }), fc.constantFrom(0, 1, -1, 2147483647, -2147483648));
export const protoValue = fc.jsonValue({ maxDepth: 2 }).map((v) => fromJson(ValueSchema, v as JsonValue));
export const allowedGrpc = (codes: Code[]) => async (call: Promise<unknown>) => {
  try {
    return { ok: true as const, value: (await call) as any };
  } catch (error) {
    const e = ConnectError.from(error);
    expect(codes, `${Code[e.code]}: ${e.rawMessage.slice(0, 300)}`).toContain(e.code);
    return { ok: false as const, code: e.code };
  }
};

