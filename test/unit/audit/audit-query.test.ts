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

/**
 * The cells a spreadsheet splitting on `delimiter` reads from one line: quotes honoured at a
 * cell's start (doubled inside), text after a closing quote joined, as Excel and LibreOffice do.
 * With `honourQuotes` false, a plain split (a reader that ignores quoting).
 */
function spreadsheetCells(line: string, delimiter: string, honourQuotes: boolean): string[] {
  if (!honourQuotes) return line.split(delimiter);
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  let atStart = true;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') (cell += '"'), i++;
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === delimiter) {
      cells.push(cell);
      cell = "";
      atStart = true;
      continue;
    } else if (char === '"' && atStart) quoted = true;
    else cell += char;
    atStart = false;
  }
  return [...cells, cell];
}

/** Whether a spreadsheet would take the cell as a formula: its first character after filler. */
function evaluates(cell: string): boolean {
  const first = cell.replace(/^[\s"]*/, "")[0];
  return first !== undefined && "=+-@".includes(first);
}

describe("CSV of an export", () => {
  it("quotes every cell (RFC 4180) and defuses leading formulas", () => {
    expect(csvField("plain")).toBe('"plain"');
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField("=HYPERLINK(\"x\")")).toBe("\"'=HYPERLINK(\"\"x\"\")\"");
    expect(csvField("+1")).toBe(`"'+1"`);
    expect(csvField("-2")).toBe(`"'-2"`);
    expect(csvField("@sum")).toBe(`"'@sum"`);
    expect(csvField("\tx")).toBe(`"'\tx"`);
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
  });

  it("defuses a formula after any delimiter a spreadsheet may split on, so no locale evaluates a cell", () => {
    const reason = "x;=cmd|' /C calc'!A0;y";
    const row = Object.fromEntries(csvHeader().trim().split(",").map((c) => [c.replaceAll('"', ""), ""])) as Record<string, string>;
    row.details = JSON.stringify({ reason });
    row.actor_id = "a,@SUM(1)|-2+cmd|x\t+1\r\n=2; \"=3";
    const line = csvLine(row as never).replace(/\r\n$/, "");
    for (const delimiter of [",", ";", "\t", "|"]) {
      for (const honourQuotes of [true, false]) {
        const cells = spreadsheetCells(line, delimiter, honourQuotes);
        expect(cells.filter(evaluates), `split on ${JSON.stringify(delimiter)}${honourQuotes ? "" : ", quotes ignored"}`).toEqual([]);
      }
    }
    expect(spreadsheetCells(line, ",", true)[11]).toBe(`{"reason":"x;'=cmd|' /C calc'!A0;y"}`);
  });

  it("writes the columns in header order", () => {
    const columns = csvHeader().trim().split(",").map((c) => c.replaceAll('"', ""));
    const row = Object.fromEntries(columns.map((c) => [c, c.toUpperCase()])) as never;
    expect(csvLine(row)).toBe(`${csvHeader().trim().toUpperCase()}\r\n`);
  });
});
