import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { checkPartRequests, checkPartsTotal, MAX_PART_BYTES, MAX_PARTS, MIN_PART_BYTES, partLength, planParts } from "../../../src/domain/files/part-plan.js";

const MIB = 1024 * 1024;

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? error.reason : "not an AppError";
  }
  return undefined;
}

describe("planParts", () => {
  it("answers no plan below the threshold: one signed PUT", () => {
    expect(planParts(16 * MIB - 1, 16 * MIB, 8 * MIB)).toBeUndefined();
  });

  it("cuts a 20 MB document into 8 MiB parts, the last one shorter", () => {
    expect(planParts(20_000_000, 16 * MIB, 8 * MIB)).toEqual({ partSize: 8 * MIB, partCount: 3 });
  });

  it("counts an exact multiple without an empty last part", () => {
    expect(planParts(16 * MIB, 16 * MIB, 8 * MIB)).toEqual({ partSize: 8 * MIB, partCount: 2 });
  });

  it("raises a part size below S3's minimum to 5 MiB", () => {
    expect(planParts(20 * MIB, 0, 1 * MIB)).toEqual({ partSize: MIN_PART_BYTES, partCount: 4 });
  });

  it("raises the part size in whole MiB when 10,000 parts would not hold the file", () => {
    const size = 100 * 1024 * MIB; // 100 GiB
    const plan = planParts(size, 16 * MIB, 8 * MIB)!;
    expect(plan.partCount).toBeLessThanOrEqual(MAX_PARTS);
    expect(plan.partSize % MIB).toBe(0);
    expect(plan.partSize * plan.partCount).toBeGreaterThanOrEqual(size);
  });

  it("never plans a part above 5 GiB", () => {
    expect(planParts(MAX_PART_BYTES * MAX_PARTS, 0, MAX_PART_BYTES)).toEqual({ partSize: MAX_PART_BYTES, partCount: MAX_PARTS });
  });
});

describe("checkPartRequests", () => {
  it("accepts parts within S3's bounds", () => {
    expect(reasonOf(() => checkPartRequests([{ partNumber: 1, contentLength: 8 * MIB }, { partNumber: MAX_PARTS, contentLength: 1 }]))).toBeUndefined();
  });

  it.each([
    ["part number 0", { partNumber: 0, contentLength: 1 }],
    ["part number above 10,000", { partNumber: MAX_PARTS + 1, contentLength: 1 }],
    ["empty part", { partNumber: 1, contentLength: 0 }],
    ["part above 5 GiB", { partNumber: 1, contentLength: MAX_PART_BYTES + 1 }],
  ])("refuses a %s", (_name, part) => {
    expect(reasonOf(() => checkPartRequests([part]))).toBe("VALIDATION_FAILED");
  });

  it("refuses the same part number twice in one batch", () => {
    expect(reasonOf(() => checkPartRequests([{ partNumber: 2, contentLength: 1 }, { partNumber: 2, contentLength: 1 }]))).toBe("VALIDATION_FAILED");
  });
});

describe("checkPartsTotal", () => {
  it("answers the sum of the parts within the limit", () => {
    expect(checkPartsTotal([8 * MIB, 8 * MIB, 100], 20 * MIB)).toBe(16 * MIB + 100);
  });

  it("refuses a sum above the class maximum with FILE_TOO_LARGE", () => {
    expect(reasonOf(() => checkPartsTotal([8 * MIB, 8 * MIB, 8 * MIB], 20 * MIB))).toBe("FILE_TOO_LARGE");
  });
});

describe("partLength", () => {
  it("gives every part but the last the part size, and the last the rest", () => {
    const plan = planParts(20_000_000, 16 * MIB, 8 * MIB)!;
    const lengths = Array.from({ length: plan.partCount }, (_, i) => partLength(20_000_000, plan.partSize, i + 1));
    expect(lengths).toEqual([8 * MIB, 8 * MIB, 20_000_000 - 16 * MIB]);
  });

  it("gives an exact multiple's last part the whole part size", () => {
    expect(partLength(16 * MIB, 8 * MIB, 2)).toBe(8 * MIB);
  });

  it("answers undefined for a part number outside the file", () => {
    expect(partLength(16 * MIB, 8 * MIB, 3)).toBeUndefined();
    expect(partLength(16 * MIB, 8 * MIB, 0)).toBeUndefined();
    expect(partLength(16 * MIB, 8 * MIB, 1.5)).toBeUndefined();
  });
});
