// States answered from their statutes, declared in their descriptors (PA, HI, MS, ID, PR): each
// table compiled against the real geography of its state and held to its anchors (the evidence's
// pins); a lapsed levy, an unpublished resort-city tax and a floor say so; then a refresh with no
// aggregator drop at all serves them, and a real server's answers carry their warnings and confidence.
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { compileStatuteTable, NOT_CARRIED_CODE } from '../pipeline/feeds/statute-table/compile.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { stateByCode } from '../sources/index.ts'
import { stateFacts } from '../sources/state-facts.ts'
import { StatuteTable } from '../sources/statute-table.ts'
import { expectAnchorsHold, stateIndex } from './support/feed-answers.ts'
import { warningCodes } from './support/lookup-bodies.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { tempDir } from './support/temp-dirs.ts'

const STATES = ['PA', 'HI', 'MS', 'ID', 'PR'] as const
const TODAY = '2026-11-21'
let geography: Geography

beforeAll(async () => {
  geography = await loadMiniGeography([...STATES])
})

const tableOf = (state: string): StatuteTable => {
  const feed = stateByCode(state)!.feeds.find((f) => f.kind === 'statute-table')
  if (!feed || feed.kind !== 'statute-table') throw new Error(`${state} has no statute table`)
  return feed
}
const compile = (state: string, table: StatuteTable = tableOf(state), today = TODAY): FeedResult =>
  compileStatuteTable({ state, stateName: stateByCode(state)!.name, facts: stateFacts(state)!, table, geography, today })

describe('the statute tables of the descriptors', () => {
  it.each(STATES)('%s: every anchor of its table holds on the real geography', (state) => {
    const result = compile(state)
    expect(expectAnchorsHold(stateByCode(state)!, 'statute-table', result)).toBeGreaterThan(0)
    // Every ZIP of the state is answered, and every jurisdiction cites its source.
    expect(new Set(result.candidates.map((c) => c.zip)).size).toBe([...geography.zips.values()].filter((z) => z.state === state).length)
    for (const j of result.jurisdictions) expect(j.source.length, `${j.level} ${j.code}`).toBeGreaterThan(10)
  })

  it('PA: Philadelphia 1% before 2009-10-08 and 2% from that day, Allegheny 1%, every other county the state rate', () => {
    const index = stateIndex('PA', compile('PA'))
    expect(defaultCombinedRate(index, '19102', 'PA', '2009-10-07')).toBe(7000)
    expect(defaultCombinedRate(index, '19102', 'PA', '2009-10-08')).toBe(8000)
    const counties = new Set(compile('PA').jurisdictions.filter((j) => j.level === 'county').map((j) => j.code))
    expect(counties).toEqual(new Set(['003', '101']))
  })

  it('HI: Kalawao (96742) never takes a surcharge; Hawaii County took 0.25% in 2019, 0.5% from 2020; none of the four after 2030-12-31', () => {
    const index = stateIndex('HI', compile('HI'))
    for (const date of ['2019-06-01', '2026-12-01', '2031-01-01']) expect(defaultCombinedRate(index, '96742', 'HI', date)).toBe(4000)
    expect(defaultCombinedRate(index, '96720', 'HI', '2018-12-31')).toBe(4000)
    expect(defaultCombinedRate(index, '96720', 'HI', '2020-01-01')).toBe(4500)
    expect(defaultCombinedRate(index, '96813', 'HI', '2031-01-01')).toBe(4000)
  })

  it('HI: a run after the surcharges\' statutory end with no newer row warns, naming each, rather than going silent', () => {
    const before = compile('HI', tableOf('HI'), '2030-12-31')
    expect(before.unplaced).toEqual([])
    const after = compile('HI', tableOf('HI'), '2031-01-02')
    expect(after.notes.filter((n) => n.startsWith('warning: '))).toHaveLength(4)
    expect(after.notes).toContainEqual(expect.stringMatching(/^warning: county surcharge on general excise tax of City and County of Honolulu ended 2030-12-31 by its statute and the table records no newer rule: it may have been extended/))
    expect(after.unplaced).toContainEqual(expect.objectContaining({ level: 'district', rate: 500, counties: ['15003'] }))
    expect(after.unplaced.map((u) => u.counties![0]).sort()).toEqual(['15001', '15003', '15007', '15009'])
    // A newer row for one county ends the warning for it alone.
    const extended = StatuteTable.parse({ ...tableOf('HI'), levies: [...tableOf('HI').levies, { county: '15003', name: 'City and County of Honolulu', tax: 'county surcharge on general excise tax', rate: '0.00500', from: '2031-01-01', to: null, citation: 'a test extension' }] })
    expect(compile('HI', extended, '2031-01-02').unplaced.map((u) => u.counties![0]).sort()).toEqual(['15001', '15007', '15009'])
  })

  it('MS: Jackson\'s 1% in each of its county parts until its repeal date, Tupelo\'s 0.25%, no levy elsewhere', () => {
    const result = compile('MS')
    const index = stateIndex('MS', result)
    expect(defaultCombinedRate(index, '39201', 'MS', '2014-02-28')).toBe(7000)
    expect(defaultCombinedRate(index, '39201', 'MS', '2035-06-30')).toBe(8000)
    expect(defaultCombinedRate(index, '39201', 'MS', '2035-07-01')).toBe(7000)
    const jackson = result.jurisdictions.filter((j) => j.level === 'city' && j.code === '36000')
    expect(jackson).toEqual([expect.objectContaining({ name: 'Jackson', rate: 1000, from: '2014-03-01', to: '2035-06-30' })])
    // Tupelo's levy in its place (38801, USPS TUPELO, bound to the city in the ZIP geography of this test;
    // the Census ZCTA→place shares may leave that rural ZCTA to Lee County, so it is no anchor).
    expect(defaultCombinedRate(index, '38801', 'MS', TODAY)).toBe(7250)
    // Ridgeland (39157, Madison County) is not Jackson.
    expect(defaultCombinedRate(index, '39157', 'MS', TODAY)).toBe(7000)
  })

  it('ID: the 23 resort cities answer the state rate, each listed as an unpublished local tax naming the city', () => {
    const result = compile('ID')
    expect(result.rateVaries).toHaveLength(23)
    expect(result.rateVaries).toContainEqual(expect.objectContaining({ level: 'city', code: '43030', name: 'Ketchum', kind: 'unpublished', lower_bound: true, exact_source: 'the City of Ketchum' }))
    const ketchum = result.candidates.filter((c) => c.zip === '83340')
    expect(ketchum.map((c) => c.stack)).toEqual([[{ level: 'state', code: 'ID' }, { level: 'city', code: '43030' }]])
    expect(result.jurisdictions.filter((j) => j.level === 'city').every((j) => j.rate === 0)).toBe(true)
  })

  it('PR: the municipal 1% in every one of the 78 municipios, not answered before 2015-07-01', () => {
    const result = compile('PR')
    const municipios = result.jurisdictions.filter((j) => j.level === 'county')
    expect(municipios).toHaveLength(78)
    expect(new Set(municipios.map((m) => m.rate))).toEqual(new Set([1000]))
    expect(municipios.find((m) => m.code === '127')!.name).toBe('San Juan Municipio')
    expect(result.coverageFrom).toBe('2015-07-01')
  })

  it('refuses a county or place the geography does not hold, and overlapping windows of one area', () => {
    const pa = tableOf('PA')
    expect(() => compile('PA', StatuteTable.parse({ ...pa, levies: [{ ...pa.levies[0]!, county: '42999' }] }))).toThrow(/Allegheny County: county 42999 is no PA county of the geography/)
    expect(() => compile('MS', StatuteTable.parse({ ...tableOf('MS'), levies: [{ ...tableOf('MS').levies[0]!, place: '2899999' }] }))).toThrow(/Jackson: place 2899999 is no incorporated MS place/)
    expect(() => compile('PA', StatuteTable.parse({ ...pa, levies: [...pa.levies, { ...pa.levies[2]!, from: '2020-01-01' }] }))).toThrow(/Philadelphia: the windows of Philadelphia local sales tax and Philadelphia local sales tax overlap/)
    expect(() => StatuteTable.parse({ ...pa, levies: [{ ...pa.levies[0]!, place: '4260000' }] })).toThrow(/a levy names one area/)
  })

  it('a floor carries no local tax: the state rate everywhere, with one unpublished district saying what is left out', () => {
    const floor = compile('PA', StatuteTable.parse({ verifiedOn: '2026-12-01', notCarried: { what: 'Pennsylvania local sales taxes', exactSource: 'PA DOR' } }))
    expect(floor.rateVaries).toEqual([expect.objectContaining({ level: 'district', code: NOT_CARRIED_CODE, kind: 'unpublished', lower_bound: true, exact_source: 'PA DOR' })])
    expect(defaultCombinedRate(stateIndex('PA', floor), '19102', 'PA', TODAY)).toBe(6000)
    expect(floor.candidates.every((c) => c.stack.some((ref) => ref.code === NOT_CARRIED_CODE))).toBe(true)
  })
})

describe('with no aggregator drop, through a real server', () => {
  let lookup: LookupServer
  let states: { code: string; status: string; feed: string }[]
  beforeAll(async () => {
    const artifacts = await tempDir('statute-artifacts')
    const drops = path.join(await tempDir('statute-drops'), 'none')
    await mkdir(drops)
    const run = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build: await tempDir('statute-build'), drops, states: STATES.join(',') }))
    if (!run.manifest) throw new Error(`snapshot not published: ${run.reason}`)
    states = run.states.filter((s) => (STATES as readonly string[]).includes(s.code))
    lookup = await startLookupServer({ dir: artifacts })
  }, 300_000)
  afterAll(async () => {
    await lookup?.close()
  })

  const full = async (state: string, zip: string) => {
    const response = await lookup.get(`/v1/tax/${state.toLowerCase()}?zip=${zip}&mode=full&as_of=${TODAY}`)
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    return response.body
  }

  it('serves every one of the five from its statute table, static', () => {
    expect(states.map(({ code, status, feed }) => ({ code, status, feed }))).toEqual([...STATES].sort().map((code) => ({ code, status: 'static', feed: 'statute-table' })))
  })

  it('answers Philadelphia at 8% with its rows citing their statutes, at high confidence', async () => {
    const body = await full('PA', '19102')
    expect(body.rate).toMatchObject({ state_rate: '0.06000', county_rate: '0.02000', combined_rate: '0.08000' })
    expect(body.meta.confidence).toBe('high')
    expect(body.rows).toContainEqual(expect.objectContaining({ level: 'county', rate: '0.02000', effective_from: '2009-10-08', source_kind: 'statute' }))
  })

  it('answers a Ketchum ZIP with the state rate, a warning naming the city and low confidence; Boise without either', async () => {
    const ketchum = await full('ID', '83340')
    expect(ketchum.rate.combined_rate).toBe('0.06000')
    expect(ketchum.meta.confidence).toBe('low')
    const warning = ketchum.meta.warnings.find((w: { code?: string }) => w.code === 'local_tax_not_included')
    expect(warning).toMatchObject({ exact_source: 'the City of Ketchum', jurisdictions: [expect.objectContaining({ name: 'Ketchum' })] })
    expect(warning.message).toMatch(/Ketchum/)
    const boise = await full('ID', '83702')
    expect(warningCodes(boise.meta.warnings)).not.toContain('local_tax_not_included')
    expect(boise.meta.confidence).toBe('high')
  })

  it('answers Kalaupapa (Kalawao) at 4% and Honolulu at 4.5%; San Juan at 11.5%; Jackson at 8%', async () => {
    expect((await full('HI', '96742')).rate.combined_rate).toBe('0.04000')
    expect((await full('HI', '96813')).rate.combined_rate).toBe('0.04500')
    expect((await full('PR', '00901')).rate).toMatchObject({ state_rate: '0.10500', county_rate: '0.01000', combined_rate: '0.11500' })
    expect((await full('MS', '39201')).rate).toMatchObject({ city_rate: '0.01000', combined_rate: '0.08000' })
  })
})
