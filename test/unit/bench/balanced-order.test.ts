import { describe, expect, it } from "vitest";
import { balancedOrders } from "../../../bench/balanced-order.js";

/** How often each item directly follows each other one, "a>b" → count. */
function successions(orders: string[][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const order of orders) {
    for (let i = 1; i < order.length; i++) counts.set(`${order[i - 1]}>${order[i]}`, (counts.get(`${order[i - 1]}>${order[i]}`) ?? 0) + 1);
  }
  return counts;
}

describe("balancedOrders", () => {
  it.each([2, 3, 4, 5, 6, 7])("with %i items, every item follows every other equally often and takes every place equally often", (n) => {
    const items = Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));
    const orders = balancedOrders(items);
    expect(orders).toHaveLength(n % 2 === 0 ? n : 2 * n);
    for (const order of orders) expect([...order].sort()).toEqual(items);
    const counts = successions(orders);
    expect(counts.size).toBe(n * (n - 1));
    expect(new Set(counts.values()).size).toBe(1);
    for (let place = 0; place < n; place++) {
      const there = orders.map((order) => order[place]);
      for (const item of items) expect(there.filter((x) => x === item)).toHaveLength(orders.length / n);
    }
  });
});
