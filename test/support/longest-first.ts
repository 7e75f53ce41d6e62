import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Integration files that take a minute or more, longest first. Several files run at a time: one of
 * these started last would run on alone while the other workers have nothing left, so they start
 * first and the short files fill in beside them. Measured on a run of the whole suite; a file
 * missing here only runs later, where vitest's own order puts it.
 */
const LONGEST = ["health-watch-hold", "browser", "retention", "scale-out", "uppy", "lifecycle-faults", "audit-tamper", "lifecycle-replay", "multipart-deadline", "uploads", "audit-trail"];

function rank(spec: TestSpecification): number {
  const at = LONGEST.findIndex((name) => spec.moduleId.endsWith(`/test/integration/${name}.test.ts`));
  return at < 0 ? LONGEST.length : at;
}

/** vitest's order (by group, then project), with the files of LONGEST first within their project. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    const group = (spec: TestSpecification) => `${String(spec.project.config.sequence.groupOrder).padStart(4, "0")}:${spec.project.name}`;
    return [...sorted].sort((a, b) => group(a).localeCompare(group(b)) || rank(a) - rank(b) || position.get(a)! - position.get(b)!);
  }
}
