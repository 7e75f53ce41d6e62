import { describe, expect, it } from "vitest";
import { auditQueryKey, checkAuditFilter } from "../../../src/domain/audit/audit-query.js";
import { csvField, csvHeader, csvLine } from "../../../src/domain/audit/audit-csv.js";
import { auditSearchSql } from "../../../src/adapters/postgres/audit-search-sql.js";
import { AppError } from "../../../src/domain/errors.js";

describe("checkAuditFilter", () => {
  it("wants an owner type and id together", () => {
    expect(() => checkAuditFilter({ ownerId: "x" })).toThrow(AppError);
    expect(() => checkAuditFilter({ ownerType: "User" })).toThrow(/ownerType and ownerId/);
    expect(checkAuditFilter({ ownerType: "User", ownerId: "u1" })).toEqual({ ownerType: "User", ownerId: "u1" });
  });

  it("refuses an empty or inverted time range", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    expect(() => checkAuditFilter({ occurredAfter: at, occurredBefore: at })).toThrow(/later than occurredAfter/);
    expect(() => checkAuditFilter({ occurredAfter: new Date(at.getTime() + 1), occurredBefore: at })).toThrow(AppError);
  });
});

describe("auditQueryKey", () => {
  it("is the same for the same search whatever the order of actions, and differs by order and filter", () => {
    const a = auditQueryKey({ actions: ["OBJECT_DELETED", "UPLOAD_INITIATED"] }, "newest_first");
    expect(auditQueryKey({ actions: ["UPLOAD_INITIATED", "OBJECT_DELETED"] }, "newest_first")).toBe(a);
    expect(auditQueryKey({ actions: ["UPLOAD_INITIATED", "OBJECT_DELETED"] }, "oldest_first")).not.toBe(a);
    expect(auditQueryKey({ actions: ["UPLOAD_INITIATED"] }, "newest_first")).not.toBe(a);
  });
});

describe("auditSearchSql", () => {
  it("states each filter as an equality on an indexed column, the keyset in the page's direction", () => {
    const after = { at: new Date("2026-02-01T00:00:00Z"), id: "0190c3a2-0000-7000-8000-000000000001" };
    const { sql, params } = auditSearchSql("t1", { filter: { actorId: "bob", result: "FAILURE" }, order: "newest_first", after, limit: 51 });
    expect(sql).toContain("where tenant_id = ? and actor_id = ? and result = ? and (occurred_at, id) < (?, ?)");
    expect(sql).toMatch(/order by occurred_at desc, id desc limit \?$/);
    expect(params).toEqual(["t1", "bob", "FAILURE", after.at, after.id, 51]);
  });

  it("reads forwards for oldest first and lists several actions", () => {
    const { sql, params } = auditSearchSql("t1", { filter: { actions: ["A", "B"], occurredAfter: new Date(0) }, order: "oldest_first", limit: 10 });
    expect(sql).toContain("action in (?, ?) and occurred_at >= ?");
    expect(sql).toMatch(/order by occurred_at asc, id asc limit \?$/);
    expect(params).toEqual(["t1", "A", "B", new Date(0), 10]);
  });
});

describe("CSV of an export", () => {
  it("quotes what needs quoting and defuses spreadsheet formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField("=HYPERLINK(\"x\")")).toBe("\"'=HYPERLINK(\"\"x\"\")\"");
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-2")).toBe("'-2");
    expect(csvField("@sum")).toBe("'@sum");
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
  });

  it("writes the columns in header order", () => {
    const row = Object.fromEntries(csvHeader().trim().split(",").map((c) => [c, c.toUpperCase()])) as never;
    expect(csvLine(row)).toBe(`${csvHeader().trim().toUpperCase()}\r\n`);
  });
});
