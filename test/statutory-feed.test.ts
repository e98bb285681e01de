// Single-rate states answered from the rules table: every HUD ZIP of the state gets the state rate,
// including states whose rate is 0, and a dated rate (DC) is answered by the lookup's date through
// a real server.
import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { countyCandidates } from '../pipeline/feeds/candidate-weights.ts'
import { compileStatutory, statutoryRates } from '../pipeline/feeds/statutory/compile.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, ZipCandidate } from '../snapshot-contract/model.ts'
import { stateByCode } from '../sources/index.ts'
import { RULES_TABLE_AS_OF, stateFacts, stateRateOn } from '../sources/state-facts.ts'
import { heldDrops } from './support/held-drops.ts'
import { warningCodes } from './support/lookup-bodies.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

type HudRow = { ZIP: string; COUNTY: string; USPS_ZIP_PREF_STATE: string }
const hud = Papa.parse<HudRow>(readFileSync(sharedPath('geo/hud/ZIP_COUNTY_032023.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data
const hudZipsOf = (state: string) => new Set(hud.filter((row) => row.USPS_ZIP_PREF_STATE === state).map((row) => row.ZIP))

/** The source the feed records for the state's rate in force on the rules table's date. */
function citation(state: string): string {
  if (!stateByCode(state)!.feeds.some((feed) => feed.kind === 'statutory')) throw new Error(`${state} has no statutory feed`)
  const rates = statutoryRates(stateFacts(state)!)
  return rates.find((window) => (window.from ?? '') <= RULES_TABLE_AS_OF && RULES_TABLE_AS_OF <= (window.to ?? '9999'))!.source
}

/** The state's feed from its windows in the rules table, or from its rate on the table's date starting on `effectiveFrom`. */
function statutoryFeed(state: string, geography: Geography, effectiveFrom: string | null = null): FeedResult {
  const facts = stateFacts(state)!
  const rates = effectiveFrom === null ? statutoryRates(facts) : [{ rate: stateRateOn(facts, RULES_TABLE_AS_OF)!, from: effectiveFrom, to: null, source: citation(state) }]
  return compileStatutory({ state, stateName: stateByCode(state)!.name, rates, geography })
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

describe('a dated statutory rate', () => {
  it("compiles DC's two windows from the rules table: 6% through 2026-09-30, 7% from 2026-10-01", () => {
    const dc = statutoryFeed('DC', geography)
    expect(dc.jurisdictions.map(({ level, code, rate, from, to }) => ({ level, code, rate, from, to }))).toEqual([
      { level: 'state', code: 'DC', rate: 6000, from: null, to: '2026-09-30' },
      { level: 'state', code: 'DC', rate: 7000, from: '2026-10-01', to: null },
    ])
    expect(dc.jurisdictions.map((j) => j.source)).toEqual([
      expect.stringMatching(/^state rate 6\.000% through 2026-09-30 per rules table \(.*KPMG TWIST 2025-12-15/),
      expect.stringMatching(/^state rate 7\.000% from 2026-10-01 per rules table \(/),
    ])
    expect(dc).toMatchObject({ effectiveDateBasis: 'publisher_effective_date', effectiveThrough: RULES_TABLE_AS_OF })
    expect(new Set(dc.candidates.map((c) => c.zip))).toEqual(hudZipsOf('DC'))
  })

  describe('through the server', () => {
    let lookup: LookupServer
    beforeAll(async () => {
      const artifacts = await tempDir('dc-artifacts')
      const run = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build: await tempDir('dc-build'), drops: await heldDrops('DC'), states: 'DC' }))
      if (!run.manifest) throw new Error(`DC snapshot not published: ${run.reason}`)
      lookup = await startLookupServer({ dir: artifacts })
    })
    afterAll(async () => {
      await lookup?.close()
    })

    const answer = async (asOf: string) => {
      const response = await lookup.get(`/v1/tax/dc?zip=20001&mode=full&as_of=${asOf}`)
      expect(response.status, JSON.stringify(response.body)).toBe(200)
      return response.body
    }

    it('answers as_of=2026-01-15 at 6% and as_of=2026-11-01 at 7%, each row with its window', async () => {
      const january = await answer('2026-01-15')
      expect(january.rate).toMatchObject({ state_rate: '0.06000', combined_rate: '0.06000' })
      expect(january.rows).toEqual([expect.objectContaining({ level: 'state', rate: '0.06000', effective_from: null, effective_to: '2026-09-30', source_kind: 'statute' })])
      const november = await answer('2026-11-01')
      expect(november.rate).toMatchObject({ state_rate: '0.07000', combined_rate: '0.07000' })
      expect(november.rows).toEqual([expect.objectContaining({ level: 'state', rate: '0.07000', effective_from: '2026-10-01', effective_to: null })])
      expect(november.meta).toMatchObject({ effective_date: '2026-10-01', effective_date_basis: 'publisher_effective_date', confidence: 'exact' })
    })

    it('says the 6% window has no published start: verified for its last quarter, assumed before it', async () => {
      expect((await answer('2026-01-15')).meta.warnings).toContainEqual(expect.objectContaining({ code: 'statutory_rate_undated', verified_for: '2026Q3' }))
      expect(warningCodes((await answer('2026-08-01')).meta.warnings)).not.toContain('statutory_rate_undated')
      expect(warningCodes((await answer('2026-11-01')).meta.warnings)).not.toContain('statutory_rate_undated')
    })

    it('switches on the first day of the new rate', async () => {
      expect((await answer('2026-09-30')).rate.combined_rate).toBe('0.06000')
      expect((await answer('2026-10-01')).rate.combined_rate).toBe('0.07000')
    })
  })
})
