import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { readPage, type Cursor } from "../../../src/domain/pagination.js";

interface Row {
  id: string;
  at: Date;
}

const rows: Row[] = Array.from({ length: 5 }, (_, i) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
}));

/** Oldest first, past `after`: what a store answers for the keyset. */
const store = (after: Cursor | undefined, limit: number) =>
  Promise.resolve(rows.filter((r) => !after || r.at > after.at || (r.at.getTime() === after.at.getTime() && r.id > after.id)).slice(0, limit));

const page = (pageToken: string, filterKey = "q") => readPage({ pageSize: 2, pageToken, filterKey }, store, (r) => ({ at: r.at, id: r.id }));

describe("readPage", () => {
  it("walks every row once, and the last page has no token", async () => {
    const seen: string[] = [];
    let token = "";
    do {
      const next = await page(token);
      seen.push(...next.items.map((r) => r.id));
      token = next.nextPageToken;
    } while (token);
    expect(seen).toEqual(rows.map((r) => r.id));
  });

  it("gives no token when the rows fit the page exactly", async () => {
    const all = await readPage({ pageSize: 5, pageToken: "", filterKey: "q" }, store, (r) => ({ at: r.at, id: r.id }));
    expect(all.items).toHaveLength(5);
    expect(all.nextPageToken).toBe("");
  });

  it("refuses a token of another query", async () => {
    const first = await page("");
    await expect(page(first.nextPageToken, "other")).rejects.toBeInstanceOf(AppError);
  });
});
