import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { readUpdateMask } from "../../../src/rpc/update-mask.js";

const WRITABLE = new Set(["name", "email"]);
const PLUMBING = new Set(["id", "update_mask"]);
const mask = (...paths: string[]) => create(FieldMaskSchema, { paths });

describe("readUpdateMask", () => {
  it("without a mask writes what the request sets", () => {
    const read = readUpdateMask(undefined, WRITABLE, PLUMBING);
    expect(read.named).toBeUndefined();
    expect([read.writes("name", true), read.writes("email", false)]).toEqual([true, false]);
  });

  it("with a mask writes what it names, set or not, and passes over the plumbing", () => {
    const read = readUpdateMask(mask("id", "email"), WRITABLE, PLUMBING);
    expect(read.named).toEqual(["email"]);
    expect([read.writes("name", true), read.writes("email", false)]).toEqual([false, true]);
    expect(read.violations).toEqual([]);
  });

  it("with a mask of plumbing only writes nothing", () => {
    const read = readUpdateMask(mask("id"), WRITABLE, PLUMBING);
    expect(read.writes("name", true)).toBe(false);
  });

  it("names each path that is no writable field", () => {
    const read = readUpdateMask(mask("name", "owner"), WRITABLE, PLUMBING);
    expect(read.violations).toEqual([{ field: "updateMask", description: '"owner" is not an updatable field' }]);
  });
});
