/**
 * Turn orders in which every item follows every other item equally often (a Williams design): a
 * turn that leaves work behind (a workflow still finishing, a flush, a warm cache) charges each
 * peer alike, where a rotating order makes the same engine follow the same one round after round.
 * For n items: n orders when n is even, 2n when it is odd (each order and its reverse).
 */
export function balancedOrders<T>(items: readonly T[]): T[][] {
  const n = items.length;
  if (n <= 1) return [items.slice()];
  // 0, 1, n-1, 2, n-2, …: consecutive differences cover every step 1..n-1 once.
  const first = Array.from({ length: n }, (_, i) => (i === 0 ? 0 : i % 2 === 1 ? (i + 1) / 2 : n - i / 2));
  const rows = Array.from({ length: n }, (_, shift) => first.map((position) => (position + shift) % n));
  const all = n % 2 === 0 ? rows : [...rows, ...rows.map((row) => [...row].reverse())];
  return all.map((row) => row.map((index) => items[index]!));
}
