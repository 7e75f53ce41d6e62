import { describe, expect, it } from "vitest";
import { MeteredSource } from "../../../../src/domain/files/checks/metered-source.js";
import { bufferSource, failingSource } from "../../../fixtures/files/index.js";

const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => i % 251);

describe("MeteredSource", () => {
  it("fetches the head once and serves reads inside it from memory", async () => {
    const inner = bufferSource(bytes);
    const source = new MeteredSource(inner, 4100);
    expect(await source.read(10, 4)).toEqual(bytes.slice(10, 14));
    expect(await source.read(0, 4100)).toEqual(bytes.slice(0, 4100));
    expect(inner.reads).toEqual([{ offset: 0, length: 4100 }]);
    expect(source.bytesRead).toBe(4100);
  });

  it("reads beyond the head from the source and counts it", async () => {
    const inner = bufferSource(bytes);
    const source = new MeteredSource(inner, 4100);
    expect(await source.read(9000, 10)).toEqual(bytes.slice(9000, 9010));
    expect(inner.reads).toEqual([{ offset: 9000, length: 10 }]);
    expect(source.bytesRead).toBe(10);
  });

  it("clamps ranges to the object instead of sending impossible requests", async () => {
    const inner = bufferSource(bytes);
    const source = new MeteredSource(inner, 0);
    expect(await source.read(-5, 10)).toEqual(bytes.slice(0, 5));
    expect(await source.read(9995, 100)).toEqual(bytes.slice(9995));
    expect(await source.read(20_000, 10)).toEqual(new Uint8Array(0));
    expect(inner.reads).toEqual([
      { offset: 0, length: 5 },
      { offset: 9995, length: 5 },
    ]);
  });

  it("counts streamed bytes and reports progress", async () => {
    const progress: number[] = [];
    const source = new MeteredSource(bufferSource(bytes, { chunkSize: 4000 }), 0, (n) => progress.push(n));
    let total = 0;
    for await (const chunk of source.stream()) total += chunk.length;
    expect(total).toBe(10_000);
    expect(progress).toEqual([4000, 8000, 10_000]);
  });

  it("recognizes errors that came from the source, and only those", async () => {
    const error = new Error("boom");
    const source = new MeteredSource(failingSource(100, error), 10);
    await expect(source.read(0, 5)).rejects.toBe(error);
    expect(source.isSourceError(error)).toBe(true);
    expect(source.isSourceError(new Error("boom"))).toBe(false);
  });
});
