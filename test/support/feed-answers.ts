// Reading a compiled feed's answers in a test: its rate index, its descriptor's anchors held against
// it, the ZIPs that lie wholly in one county part, and expected rates in 1e-5 units.
import { expect } from 'vitest'
import { defaultCombinedRate } from '../../pipeline/run/validate-state.ts'
import { parseRatePercent } from '../../snapshot-contract/rate-units.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../../snapshot-contract/rate-index.ts'
import type { StateDescriptor } from '../../sources/descriptor.ts'

/** The sum of percents written as numbers (as the workbooks hold them), in 1e-5 units, each read exactly from its decimal text. */
export function units(...percents: number[]): number {
  return percents.reduce((sum, percent) => {
    const parsed = parseRatePercent(String(percent))
    if (!parsed.ok) throw new Error(`${percent}: ${parsed.reason}`)
    return sum + parsed.units
  }, 0)
}

/** The rate index of one state's compiled result. */
export const stateIndex = (code: string, result: FeedResult) => new RateIndex(writeRateIndex({ states: [{ code, result }], zipMeta: () => undefined }))

/** Every anchor the descriptor pins on `feed` answers its expected default rate from `result`; how many there are. */
export function expectAnchorsHold(descriptor: StateDescriptor, feed: string, result: FeedResult): number {
  const index = stateIndex(descriptor.code, result)
  const anchors = descriptor.anchors.filter((anchor) => anchor.feed === feed)
  for (const anchor of anchors) {
    expect(defaultCombinedRate(index, anchor.zip, descriptor.code, anchor.asOf), `${anchor.zip} ${anchor.asOf}: ${anchor.source}`).toBe(Number(anchor.expected.replace('.', '')))
  }
  return anchors.length
}

/** ZIPs whose every candidate lies in one county part (of a place, or outside any: null). */
export function zipsWholly(result: FeedResult, county: string, place: string | null): string[] {
  const byZip = new Map<string, FeedResult['candidates']>()
  for (const c of result.candidates) byZip.set(c.zip, [...(byZip.get(c.zip) ?? []), c])
  return [...byZip].filter(([, cs]) => cs.every((c) => c.countyFips === county && c.placeFips === place)).map(([zip]) => zip)
}
