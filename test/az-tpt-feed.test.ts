// Arizona from DOR's TPT rate table: a CSV built from the documented layout (support/az-tpt-fixture.ts),
// decoded as fetched (BOM included), parsed by header name and compiled against the real AZ
// geography; discovered on a mirror served over loopback HTTP and, as production runs, at azdor.gov
// through the publisher replica in a process of its own, newest table in effect.
import { beforeAll, describe, expect, it } from 'vitest'
import { compileAzTpt } from '../pipeline/feeds/az-dor-tpt/compile.ts'
import { parseAzTptFile } from '../pipeline/feeds/az-dor-tpt/rate-file.ts'
import { fetchStateSources, loadFeed } from '../pipeline/run/load-state.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import AZ from '../sources/az.ts'
import { AZ_TPT_PAGE } from '../sources/descriptor.ts'
import { AZ_CITIES, azRateTable, COUNTY_PART, type AzFixtureRow } from './support/az-tpt-fixture.ts'
import { stateIndex, zipsWholly } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'
import type { PublisherReplica } from './support/publisher-replica.ts'

const FILE = 'TPT_RATETABLE_ALL_05012026.csv'
const STATE_RATE = 5600
const pct = (text: string) => Math.round(Number(text) * 1000)
const NOW = '2026-11-21T03:00:00.000Z'
const bed = feedTestBed('AZ', NOW)
let geography: Geography
let result: FeedResult
let index: RateIndex
const read = (text: string) => parseAzTptFile(decodeText(Buffer.from(text, 'utf8'), FILE), FILE)
const compile = (text: string) => compileAzTpt({ file: read(text), stateRate: STATE_RATE, geography, edition: '2026-05-01' })

beforeAll(() => {
  geography = bed.geography
  result = compile(azRateTable())
  index = new RateIndex(writeRateIndex({ states: [{ code: 'AZ', result }], zipMeta: () => undefined }))
})

/** Combined rate on a date of every candidate of a place in a county. */
const ratesOf = (placeFips: string | null, countyFips: string, date: string) =>
  result.candidates.filter((c) => c.placeFips === placeFips && c.countyFips === countyFips && c.basis !== 'within_zip').map((c) => {
    const entry = index.lookupZip(c.zip).find((e) => e.state === 'AZ')!
    const found = entry.candidates.find((x) => x.county?.fips === c.countyFips && (x.place?.geoid ?? null) === c.placeFips)!
    return index.combinedRate(found.stack, date)
  })
const placeNamed = (name: string) => [...geography.places.values()].find((p) => p.state === 'AZ' && p.name === name && p.kind === 'incorporated')!

describe('reading the TPT rate table', () => {
  it('reads retail rows by header name, with or without the BOM, leaving other business codes (per-unit ones included) out', () => {
    const file = read(azRateTable())
    expect(read(azRateTable({ bom: false })).rows).toEqual(file.rows)
    expect(file.rows.every((r) => r.rate > 0)).toBe(true)
    expect(file.rows).toHaveLength(15 + AZ_CITIES.filter((r) => r[2] === '017').length)
    expect(file.rows.find((r) => r.region === 'MS' && r.to === null)).toMatchObject({ from: '2026-04-01', rate: 2000 })
  })

  it('sets aside a per-unit retail rate where a percent is expected, naming its line and type', () => {
    const perUnit: AzFixtureRow = ['TU', 'TUCSON', '017', '0.5', 'Per Unit', '1/1/2026', '12/31/9999']
    const file = read(azRateTable({ rows: [perUnit] }))
    expect(file.setAside.notes()[0]).toMatch(/1 row\(s\) set aside.*line \d+: retail rate of TU is of type "Per Unit", not Percent: a per-unit rate where a percent is expected/)
  })

  it('reads a table whose header row moved below a title line', () => {
    expect(read(`Transaction Privilege Tax Rate Table\r\n${azRateTable({ bom: false })}`).rows.map(({ line, ...r }) => r)).toEqual(read(azRateTable()).rows.map(({ line, ...r }) => r))
  })

  it('sets aside a county row whose TaxRate is a fraction where a percent is expected (TAP-az: units from TaxRateType, not the size of the number) and one of a per-unit type: each named, its county answering the state rate alone, every other county and city served', () => {
    const lineOf = (table: string, start: string) => table.split('\r\n').findIndex((line) => line.replace(/^\uFEFF/, '').startsWith(start)) + 1
    const table = azRateTable()
      .replace(/^(YAV,YAVAPAI,017,Retail,)6\.1,/m, '$10.061,')
      .replace(/^(GRN,GREENLEE,017,Retail,6\.1,)Percent,/m, '$1Per Unit,')
    const odd = compile(table)
    expect(odd.notes).toContain(`${FILE}: 2 row(s) set aside, their taxes left out of every answer (line ${lineOf(table, 'GRN,')}: retail rate of GRN is of type "Per Unit", not Percent: a per-unit rate where a percent is expected; line ${lineOf(table, 'YAV,')}: county region YAV at 0.00061 is below the 0.05600 state rate it includes)`)
    expect(odd.notes).toContain("2 Arizona counties have no layer of their own, the rows rating them set aside (Greenlee (04011), Yavapai (04025)): outside any place rated apart, the state's layer alone answers there")
    expect(odd.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 2 })])
    expect(odd.jurisdictions.filter((j) => j.level === 'county' && ['011', '025'].includes(j.code))).toEqual([])
    const oddIndex = new RateIndex(writeRateIndex({ states: [{ code: 'AZ', result: odd }], zipMeta: () => undefined }))
    const answer = (zip: string) => defaultCombinedRate(oddIndex, zip, 'AZ', '2026-05-01')
    for (const county of ['04011', '04025']) {
      const zips = zipsWholly(odd, county, null)
      expect(zips.length).toBeGreaterThan(0)
      for (const zip of zips) expect(answer(zip)).toBe(STATE_RATE)
    }
    const inOddCounties = odd.candidates.filter((c) => c.countyFips === '04011' || c.countyFips === '04025')
    expect(inOddCounties.length).toBeGreaterThan(0)
    for (const c of inOddCounties) expect(c.stack).toEqual([{ level: 'state', code: '04' }])
    for (const zip of zipsWholly(odd, '04013', placeNamed('Phoenix').geoid)) expect(answer(zip)).toBe(STATE_RATE + pct(COUNTY_PART.MAR!) + pct('2.3'))
    for (const zip of zipsWholly(odd, '04019', null)) expect(answer(zip)).toBe(STATE_RATE + pct(COUNTY_PART.PMA!))
  })

  it('sets aside a city row whose TaxRate is a fraction where a percent is expected: named, the city answering state and county alone, other cities served', () => {
    const table = azRateTable().replace(/^(TU,TUCSON,017,Retail,)2\.6,/m, '$10.026,')
    const line = table.split('\r\n').findIndex((l) => l.startsWith('TU,TUCSON,017,')) + 1
    const odd = compile(table)
    expect(odd.notes).toContain(`${FILE}: 1 row(s) set aside, their taxes left out of every answer (line ${line}: city region TU at 0.00026 is below any city rate (0.00100): a fraction where a percent is expected)`)
    expect(odd.jurisdictions.filter((j) => j.level === 'city' && j.code === 'TU')).toEqual([])
    const oddIndex = new RateIndex(writeRateIndex({ states: [{ code: 'AZ', result: odd }], zipMeta: () => undefined }))
    const answer = (zip: string) => defaultCombinedRate(oddIndex, zip, 'AZ', '2026-05-01')
    // the ZIPs that lie wholly in Tucson when its row reads
    const tucson = zipsWholly(result, '04019', placeNamed('Tucson').geoid)
    expect(tucson.length).toBeGreaterThan(0)
    for (const zip of tucson) expect(answer(zip)).toBe(STATE_RATE + pct(COUNTY_PART.PMA!))
    for (const zip of zipsWholly(odd, '04013', placeNamed('Phoenix').geoid)) expect(answer(zip)).toBe(STATE_RATE + pct(COUNTY_PART.MAR!) + pct('2.3'))
    expect(odd.leftOut).toEqual([expect.objectContaining({ kind: 'rows set aside', count: 1 })])
  })

  it('fails the table as incomplete when a county has no retail row at all', () => {
    const table = azRateTable().replace(/^YAV,YAVAPAI,017,.*\r\n/m, '')
    expect(() => compile(table)).toThrow(/: 1 of 15 Arizona counties of the geography not listed \(Yavapai \(04025\)\): the file is incomplete/)
  })
})

describe('compiling Arizona', () => {
  it('answers a city part with state, county (its row less the state rate) and city; outside cities, state and county', () => {
    const phoenix = ratesOf(placeNamed('Phoenix').geoid, '04013', '2026-05-01')
    expect(phoenix.length).toBeGreaterThan(0)
    for (const rate of phoenix) expect(rate).toBe(STATE_RATE + pct(COUNTY_PART.MAR!) + pct('2.3'))
    const outside = ratesOf(null, '04013', '2026-05-01')
    expect(outside.length).toBeGreaterThan(0)
    for (const rate of outside) expect(rate).toBe(STATE_RATE + pct(COUNTY_PART.MAR!))
  })

  it('binds city MP Maricopa to the city in Pinal County, not to Maricopa County', () => {
    const maricopa = placeNamed('Maricopa')
    expect(maricopa.counties.map((c) => c.fips)).toContain('04021')
    const rates = ratesOf(maricopa.geoid, '04021', '2026-05-01')
    expect(rates.length).toBeGreaterThan(0)
    for (const rate of rates) expect(rate).toBe(STATE_RATE + pct(COUNTY_PART.PNL!) + pct('2.0'))
  })

  it('keeps a county by its FIPS code with the region code a TPT return names it by, read back from rates.bin', () => {
    expect(result.jurisdictions.filter((j) => j.level === 'county' && j.code === '013').map((j) => j.filingCode)).toContain('MAR')
    expect(index.filingCode('AZ', 'county', '013')).toBe('MAR')
    expect(index.filingCode('AZ', 'county', '019')).toBe('PMA')
    expect(index.filingCode('AZ', 'city', 'MP')).toBeNull()
  })

  it('answers each date from the row in force then', () => {
    const mesa = placeNamed('Mesa').geoid
    expect(new Set(ratesOf(mesa, '04013', '2026-03-31'))).toEqual(new Set([STATE_RATE + pct(COUNTY_PART.MAR!) + pct('1.75')]))
    expect(new Set(ratesOf(mesa, '04013', '2026-04-01'))).toEqual(new Set([STATE_RATE + pct(COUNTY_PART.MAR!) + pct('2.0')]))
  })

  it('lists a tribal region as unplaced, never summed in', () => {
    expect(result.unplaced).toEqual([expect.objectContaining({ level: 'district', code: 'SRPMIC', rate: 1000, reason: expect.stringMatching(/tribal or special region/) })])
    expect(result.candidates.some((c) => c.stack.some((ref) => ref.code === 'SRPMIC'))).toBe(false)
  })
})

describe('finding the rate table', () => {

  it('takes the newest table whose date has come, holding one dated later; a sign-in page in its place is refused', async () => {
    await bed.mirror.publish({ 'az-dor-tpt/TPT_RATETABLE_ALL_11012026.csv': azRateTable(), 'az-dor-tpt/TPT_RATETABLE_ALL_12012026.csv': azRateTable(), 'az-dor-tpt/TPT_RATETABLE_ALL_10012026.csv': azRateTable() })
    const loaded = await loadFeed(AZ, AZ.feeds[0]!, await bed.context())
    expect(loaded.edition).toBe('2026-11-01')
    expect(loaded.files.map((f) => f.name)).toContain('TPT_RATETABLE_ALL_11012026.csv')
    const sources = await fetchStateSources(AZ, AZ.feeds[0]!, await bed.context())
    expect(sources.choices[0]!.how).toMatch(/held until their date: TPT_RATETABLE_ALL_12012026\.csv/)
    await bed.mirror.publish({ 'az-dor-tpt/TPT_RATETABLE_ALL_11012026.csv': '<!DOCTYPE html><html><head><title>Access Denied</title></head></html>' })
    await expect(fetchStateSources(AZ, AZ.feeds[0]!, await bed.context())).rejects.toThrow(/answered an HTML page \("Access Denied"\)/)
  })
})

/** The rate table page as DOR links its monthly tables, by absolute path under /sites/default/files/document/. */
const rateTablePage = (files: string[]) =>
  `<!DOCTYPE html><html><head><title>Tax Rate Table | Arizona Department of Revenue</title></head><body><h1>Tax Rate Table</h1><ul>${files.map((file) => `<li><a href="/sites/default/files/document/${file}">${file.slice(0, -4)}</a></li>`).join('')}</ul><a href="/business/transaction-privilege-tax">TPT</a></body></html>`
const tableUrl = (file: string) => new URL(`/sites/default/files/document/${file}`, AZ_TPT_PAGE).href

describe('through the publisher replica, as production runs', () => {
  const HOST = new URL(AZ_TPT_PAGE).host
  const IN_EFFECT = 'TPT_RATETABLE_ALL_11012026.csv'
  const servePage = (replica: PublisherReplica) => replica.answer(AZ_TPT_PAGE, { kind: 'page', html: rateTablePage(['TPT_RATETABLE_ALL_12012026.csv', IN_EFFECT, 'TPT_RATETABLE_ALL_10012026.csv']) })

  it('finds the newest table in effect from the rate table page at azdor.gov through the proxy, and answers a Phoenix ZIP from it', async () => {
    const load = await loadFeedAtPublisher('AZ', NOW, [HOST], async (replica) => {
      servePage(replica)
      await replica.serveBytes(tableUrl(IN_EFFECT), azRateTable({ bom: true }))
    })
    const loaded = loadedFeed(load)
    expect(loaded.choices[0]).toMatchObject({ edition: '2026-11-01', request: { fileName: IN_EFFECT, officialUrl: tableUrl(IN_EFFECT) } })
    expect(loaded.choices[0]!.how).toMatch(/held until their date: TPT_RATETABLE_ALL_12012026\.csv/)
    expect(loaded.result.files.map((f) => f.url).filter((url) => url.startsWith('https:'))).toEqual([tableUrl(IN_EFFECT)])
    const phoenix = zipsWholly(loaded.result, '04013', placeNamed('Phoenix').geoid)
    expect(phoenix.length).toBeGreaterThan(0)
    expect(defaultCombinedRate(stateIndex('AZ', loaded.result), phoenix[0]!, 'AZ', NOW.slice(0, 10))).toBe(STATE_RATE + pct(COUNTY_PART.MAR!) + pct('2.3'))
    expect(load.tunnels).toContain(HOST)
  }, 120_000)

  it('fails with a note naming the file when a sign-in page is answered with 200 in its place', async () => {
    const { outcome } = await loadFeedAtPublisher('AZ', NOW, [HOST], (replica) => {
      servePage(replica)
      replica.answer(tableUrl(IN_EFFECT), { kind: 'page', html: '<!DOCTYPE html><html><head><title>Sign In | AZTaxes</title></head><body><form></form></body></html>' })
    })
    expect(outcome).toEqual({ error: expect.stringMatching(/TPT_RATETABLE_ALL_11012026\.csv: the server answered an HTML page \("Sign In \| AZTaxes"\) in place of the file/) })
  }, 120_000)
})
