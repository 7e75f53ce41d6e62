/** Resident set of this process, and a full GC so that a measurement starts from a settled heap. */
import v8 from "node:v8";
import vm from "node:vm";

let gc: (() => void) | undefined;

/** `npm run bench` runs without --expose-gc; the flag can still be set at run time. */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc") as () => void;
  }
  gc();
}

export const rssMb = () => process.memoryUsage.rss() / 2 ** 20;
