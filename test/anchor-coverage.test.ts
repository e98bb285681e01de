// An anchor is held only by data that answers for its date. A newer aggregator edition, whose rates
// all start on its edition date, cannot be held to an anchor dated before it: the edition in service
// then is kept as a history layer, and the newer edition must still be publishable.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseAvalaraZip5 } from '../pipeline/feeds/aggregator-drop.ts'
import { compileAvalara } from '../pipeline/feeds/avalara-zip5/compile.ts'
import { checkAnchors, coverageStart } from '../pipeline/run/validate-state.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { STATES } from '../sources/index.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { sharedPath } from './support/shared.ts'

const wyText = readFileSync(sharedPath('drops', 'avalara-zip5', '202512', 'TAXRATES_ZIP5_WY202512.csv'), 'utf8')
const wy = STATES.find((state) => state.code === 'WY')!

async function indexOf(fileName: string) {
  const geography = await loadMiniGeography(['WY'])
  const result = compileAvalara({ ...parseAvalaraZip5(wyText, fileName), geography })
  const index = new RateIndex(new Uint8Array(writeRateIndex({ states: [{ code: 'WY', result }], zipMeta: () => undefined })))
  return { index, result }
}

describe('anchors and the dates the data answers for', () => {
  it('the edition the anchor was read from is held to it', async () => {
    const { index, result } = await indexOf('TAXRATES_ZIP5_WY202512.csv')
    expect(coverageStart(result)).toBe('2025-12-01')
    const anchors = checkAnchors(index, wy, 'avalara-zip5', { from: coverageStart(result), through: result.effectiveThrough })
    expect(anchors.length).toBeGreaterThan(0)
    expect(anchors.every((a) => a.outcome === 'held')).toBe(true)
  })

  it('a newer edition (the same rows, dated 2026-01) is not held to an anchor dated before its rates start', async () => {
    const { index, result } = await indexOf('TAXRATES_ZIP5_WY202601.csv')
    expect(coverageStart(result)).toBe('2026-01-01')
    const anchors = checkAnchors(index, wy, 'avalara-zip5', { from: coverageStart(result), through: result.effectiveThrough })
    expect(anchors.map((a) => a.outcome)).toEqual(anchors.map(() => 'not_applicable'))
    // Held to the anchor's date regardless, it would have diverged: no rate of that edition is in force then.
    const unguarded = checkAnchors(index, wy, 'avalara-zip5', { from: null, through: result.effectiveThrough })
    expect(unguarded.some((a) => a.outcome === 'diverged')).toBe(true)
  })

  it('a file with open-ended state rates (no start) covers every date', () => {
    expect(coverageStart({ jurisdictions: [{ state: 'GA', level: 'state', code: '13', name: 'GA', rate: 4000, from: null, to: null, source: 'x' }] })).toBeNull()
  })
})
