// Integer counts of 10^-digits written as JSON numbers (server/base/scaled-number-text.ts, the
// numbers of TaxJar's order-tax answer): the same text JSON.stringify writes for the quotient, for
// every count up to 15 digits and beyond, positive and negative, at each scale.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { scaledNumberText } from '../server/base/scaled-number-text.ts'

const stringified = (count: number, digits: number) => JSON.stringify(count / 10 ** digits)

describe('scaledNumberText', () => {
  it('writes what JSON.stringify writes for count / 10^digits', () => {
    const counts = fc.oneof(
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }).map(Number),
      fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }).map(Number),
      fc.integer({ min: 0, max: 9_999 }).map((n) => n * 10 ** 11),
    )
    fc.assert(
      fc.property(counts, fc.integer({ min: 0, max: 6 }), (count, digits) => {
        expect(scaledNumberText(count, digits)).toBe(stringified(count, digits))
      }),
      { numRuns: 20_000 },
    )
  })

  it('at the edges: zero, trailing zeros, leading zeros after the point, 15 and 16 digits', () => {
    for (const [count, digits] of [[0, 4], [-0, 2], [5, 5], [10, 4], [725, 5], [10_250, 5], [199_900, 4], [1, 6], [999_999_999_999_999, 4], [1e15, 4], [2 ** 53 - 1, 4], [-725, 5]] as const) {
      expect(scaledNumberText(count, digits), `${count} / 10^${digits}`).toBe(stringified(count, digits))
    }
  })
})
