/**
 * Binary search over a sorted column: the first index in [0, length) at which `before(i)` is false,
 * for a `before` that holds on a prefix of the indexes ("the value at i sorts before the key");
 * `length` when it holds everywhere.
 */
export function lowerBound(length: number, before: (i: number) => boolean): number {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (before(mid)) lo = mid + 1
    else hi = mid
  }
  return lo
}
