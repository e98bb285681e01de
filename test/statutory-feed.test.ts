// Single-rate states answered from the rules table: every HUD ZIP of the state gets the state rate,
// including states whose rate is 0.
import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { beforeAll, describe, expect, it } from 'vitest'
import { countyCandidates } from '../pipeline/feeds/candidate-weights.ts'
import { compileStatutory, RULES_TABLE_AS_OF } from '../pipeline/feeds/statutory.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, ZipCandidate } from '../snapshot-contract/model.ts'
import { stateByCode } from '../sources/index.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { sharedPath } from './support/shared.ts'

type HudRow = { ZIP: string; COUNTY: string; USPS_ZIP_PREF_STATE: string }
const hud = Papa.parse<HudRow>(readFileSync(sharedPath('geo/hud/ZIP_COUNTY_032023.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data
const hudZipsOf = (state: string) => new Set(hud.filter((row) => row.USPS_ZIP_PREF_STATE === state).map((row) => row.ZIP))

function citation(state: string): string {
  const feed = stateByCode(state)!.feeds.find((f) => f.kind === 'statutory')
  if (feed?.kind !== 'statutory') throw new Error(`${state} has no statutory feed`)
  return feed.citation
}

function statutoryFeed(state: string, geography: Geography, effectiveFrom: string | null = null): FeedResult {
  const descriptor = stateByCode(state)!
  return compileStatutory({
    state,
    stateName: descriptor.name,
    rate: descriptor.stateRate,
    label: citation(state),
    effectiveFrom,
    geography,
  })
}

function byZip(candidates: ZipCandidate[]): Map<string, ZipCandidate[]> {
  const zips = new Map<string, ZipCandidate[]>()
  for (const c of candidates) zips.set(c.zip, [...(zips.get(c.zip) ?? []), c])
  return zips
}

let geography: Geography
beforeAll(async () => {
  geography = await loadMiniGeography(['CT', 'DE', 'NH', 'OR', 'DC', 'KY', 'TN', 'ME'])
})

describe('compileStatutory', () => {
  it('gives every HUD CT ZIP 6.35% from the one state jurisdiction', () => {
    const ct = statutoryFeed('CT', geography)
    expect(ct.jurisdictions).toEqual([
      { state: 'CT', level: 'state', code: 'CT', name: 'Connecticut', rate: 6350, from: null, to: null, source: citation('CT') },
    ])
    const zips = byZip(ct.candidates)
    expect(new Set(zips.keys())).toEqual(hudZipsOf('CT'))
    expect(zips.size).toBe(403)
    for (const [zip, candidates] of zips) {
      expect(candidates.reduce((sum, c) => sum + c.weight, 0), zip).toBeCloseTo(1, 9)
      for (const c of candidates) {
        expect(c.stack).toEqual([{ level: 'state', code: 'CT' }])
        expect(c.countyFips === null || c.countyFips.startsWith('09')).toBe(true)
      }
    }
  })

  it('P29 DE, NH and OR at 0 are real answers with a state jurisdiction of rate 0', () => {
    for (const state of ['DE', 'NH', 'OR']) {
      const feed = statutoryFeed(state, geography)
      expect(feed.jurisdictions).toHaveLength(1)
      expect(feed.jurisdictions[0]).toMatchObject({ level: 'state', code: state, rate: 0 })
      expect(new Set(feed.candidates.map((c) => c.zip))).toEqual(hudZipsOf(state))
      expect(feed.candidates.every((c) => c.stack.length === 1 && c.stack[0]!.code === state)).toBe(true)
      expect(feed.notes.join('\n')).toMatch(/0 is the answer, not missing data/)
    }
  })

  it('answers a DC federal ZIP located in Arlington VA (20301) with a null-county DC candidate', () => {
    const dc = statutoryFeed('DC', geography)
    expect(geography.zips.get('20301')).toMatchObject({ state: 'DC', counties: [{ fips: '51013' }] })
    expect(dc.candidates.filter((c) => c.zip === '20301')).toEqual([
      { zip: '20301', state: 'DC', countyFips: null, countyName: '', placeFips: null, placeName: '', weight: 1, stack: [{ level: 'state', code: 'DC' }] },
    ])
  })

  it('renormalises a straddler to the counties inside the state (42223 Fort Campbell: KY 29%, TN 71%)', () => {
    const zip = geography.zips.get('42223')!
    expect(zip.states.sort()).toEqual(['KY', 'TN'])
    expect(countyCandidates(zip, 'KY')).toEqual([{ fips: '21047', weight: 1 }])
    expect(countyCandidates(zip, 'TN')).toEqual([{ fips: '47125', weight: 1 }])
    const ky = statutoryFeed('KY', geography)
    expect(ky.candidates.filter((c) => c.zip === '42223')).toMatchObject([{ countyFips: '21047', countyName: 'Christian', weight: 1 }])
  })

  it('dates a rate with no published start as verified through the rules table as-of date', () => {
    const ct = statutoryFeed('CT', geography)
    expect(RULES_TABLE_AS_OF).toBe('2026-12-01')
    expect(ct).toMatchObject({ edition: 'statutory', effectiveDateBasis: 'no_published_date', effectiveThrough: '2026-12-01', unplaced: [] })
  })

  it('uses a published start date when given, and reflects a future start through that date', () => {
    const dc = statutoryFeed('DC', geography, '2026-10-01')
    expect(dc).toMatchObject({ effectiveDateBasis: 'publisher_effective_date', effectiveThrough: '2026-12-01' })
    expect(dc.jurisdictions[0]).toMatchObject({ rate: 7000, from: '2026-10-01', to: null })
    expect(statutoryFeed('DC', geography, '2027-01-01').effectiveThrough).toBe('2027-01-01')
  })
})
