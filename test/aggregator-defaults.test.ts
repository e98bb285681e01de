// Aggregator rows that answer part of a ZIP for all of it (pipeline/feeds/aggregator-defaults.ts),
// on the real 2025-12 drops and the real geography: the public cases of each cause, and what the
// rules change across every state's drop.
import { readdirSync, readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseAvalaraZip5, type AvalaraRow } from '../pipeline/feeds/aggregator-drop.ts'
import { compileAvalara } from '../pipeline/feeds/avalara-zip5/compile.ts'
import { MIN_AGREEING } from '../pipeline/feeds/aggregator-defaults.ts'
import { buildGeography } from '../pipeline/geography/build-geography.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, ZipCandidate } from '../snapshot-contract/model.ts'
import { placeMatchKey } from '../snapshot-contract/place-names.ts'
import { sharedPath } from './support/shared.ts'

const EDITION = '202512'
const DROPS = sharedPath('drops', 'avalara-zip5', EDITION)

let geography: Geography
const compiled = new Map<string, { rows: AvalaraRow[]; feed: FeedResult }>()

beforeAll(async () => {
  geography = await buildGeography(sharedPath('geo'))
  for (const name of readdirSync(DROPS).filter((n) => n.endsWith('.csv'))) {
    const parsed = parseAvalaraZip5(readFileSync(`${DROPS}/${name}`, 'utf8'), name)
    compiled.set(parsed.state, { rows: parsed.rows, feed: compileAvalara({ ...parsed, geography }) })
  }
}, 120_000)

const rowOf = (state: string, zip: string) => compiled.get(state)!.rows.find((r) => r.zip === zip)!
const candidatesOf = (state: string, zip: string) => compiled.get(state)!.feed.candidates.filter((c) => c.zip === zip)
function combined(state: string, candidate: ZipCandidate): number {
  const rates = new Map(compiled.get(state)!.feed.jurisdictions.map((j) => [`${j.level}|${j.code}`, j.rate]))
  return candidate.stack.reduce((sum, ref) => sum + rates.get(`${ref.level}|${ref.code}`)!, 0)
}
const topCounty = (zip: string) => [...geography.zips.get(zip)!.counties].sort((a, b) => b.weight - a.weight)[0]!.fips

/** The most common combined rate of `rows`, with its count. */
function commonest(rows: AvalaraRow[]): [number, number] {
  const counts = new Map<number, number>()
  for (const row of rows) counts.set(row.combinedRate, (counts.get(row.combinedRate) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]!
}

describe('sub-ZIP district', () => {
  it('New Orleans 70112: the French Quarter district (0.245%) stays a candidate; the rate the other New Orleans ZIPs agree on is the default', () => {
    const row = rowOf('LA', '70112')
    expect(row).toMatchObject({ taxRegionName: 'FRENCH QUARTER EDD', specialRate: 245 })
    const county = topCounty('70112')
    const others = compiled.get('LA')!.rows.filter((r) => r.zip !== '70112' && geography.zips.get(r.zip)?.city === 'NEW ORLEANS' && topCounty(r.zip) === county)
    const [rate, count] = commonest(others)
    expect(count * 2).toBeGreaterThan(others.length)
    expect(rate).toBe(10_000)
    const [chosen, district] = [...candidatesOf('LA', '70112')].sort((a, b) => b.weight - a.weight)
    expect(chosen).toMatchObject({ basis: 'usual_rate', weight: 2 / 3 })
    expect(combined('LA', chosen!)).toBe(rate)
    expect(district).toMatchObject({ basis: 'sub_zip_district' })
    expect(combined('LA', district!)).toBe(row.combinedRate)
  })

  it('Missouri and Kansas CID/TDD rows (St. Louis 63101, Olathe 66061) yield to their city; a whole-county tax does not', () => {
    for (const [state, zip] of [['MO', '63101'], ['KS', '66061']] as const) {
      const row = rowOf(state, zip)
      expect(row.taxRegionName).toMatch(/\b(CID|COMMUNITY IMPROVEMENT DISTRICT)\b/)
      const [chosen, district] = [...candidatesOf(state, zip)].sort((a, b) => b.weight - a.weight)
      expect(chosen!.basis, zip).toBe('usual_rate')
      expect(district!.basis, zip).toBe('sub_zip_district')
      // only the district's part is set aside
      expect(row.combinedRate - combined(state, chosen!), zip).toBeGreaterThan(0)
      expect(row.combinedRate - combined(state, chosen!), zip).toBeLessThanOrEqual(row.specialRate)
    }
    // Minnesota's aggregator rows carry the county-wide transit taxes as "special": every Hennepin County ZIP of Minneapolis does, so none is a district there.
    const minneapolis = compiled.get('MN')!.feed.candidates.filter((c) => geography.zips.get(c.zip)?.city === 'MINNEAPOLIS' && c.countyFips === '27053')
    expect(minneapolis.length).toBeGreaterThan(30)
    for (const c of minneapolis) expect(c.basis, c.zip).not.toBe('sub_zip_district')
  })
})

describe('neighbour region', () => {
  it('Scottsdale 85251, filed under PHOENIX: the rate of the rows filed SCOTTSDALE in its county is the default, PHOENIX stays a candidate', () => {
    expect(rowOf('AZ', '85251').taxRegionName).toBe('PHOENIX')
    const zip = geography.zips.get('85251')!
    expect(zip).toMatchObject({ city: 'SCOTTSDALE', places: [expect.objectContaining({ name: 'Scottsdale', method: 'preferred_city' })] })
    const scottsdale = compiled.get('AZ')!.rows.filter((r) => r.taxRegionName === 'SCOTTSDALE' && topCounty(r.zip) === topCounty('85251'))
    const [rate, count] = commonest(scottsdale)
    expect(count).toBeGreaterThanOrEqual(MIN_AGREEING)
    const [chosen, region] = [...candidatesOf('AZ', '85251')].sort((a, b) => b.weight - a.weight)
    expect(chosen).toMatchObject({ basis: 'usual_rate', placeName: 'SCOTTSDALE' })
    expect(combined('AZ', chosen!)).toBe(rate)
    expect(region).toMatchObject({ basis: 'neighbour_region', placeName: 'PHOENIX' })
    expect(combined('AZ', region!)).toBe(rowOf('AZ', '85251').combinedRate)
    expect(rate).not.toBe(rowOf('AZ', '85251').combinedRate)
  })

  it('Elgin 60120, filed under BARTLETT: the Elgin rows of its county agree on another rate, which is the default', () => {
    expect(rowOf('IL', '60120').taxRegionName).toBe('BARTLETT')
    const elgin = compiled.get('IL')!.rows.filter((r) => placeMatchKey(r.taxRegionName) === 'ELGIN' && topCounty(r.zip) === topCounty('60120'))
    const [rate, count] = commonest(elgin)
    expect(count * 2).toBeGreaterThan(elgin.length)
    const [chosen, region] = [...candidatesOf('IL', '60120')].sort((a, b) => b.weight - a.weight)
    expect(combined('IL', chosen!)).toBe(rate)
    expect(region).toMatchObject({ basis: 'neighbour_region', placeName: 'BARTLETT' })
  })

  it('Des Plaines 60016, filed under NILES: the one other row filed DES PLAINES in its county (60017) is enough evidence (MIN_AGREEING)', () => {
    expect(rowOf('IL', '60016').taxRegionName).toBe('NILES')
    const desPlaines = compiled.get('IL')!.rows.filter((r) => r.taxRegionName === 'DES PLAINES' && geography.zips.has(r.zip) && topCounty(r.zip) === topCounty('60016'))
    const [rate, count] = commonest(desPlaines)
    expect(count).toBe(MIN_AGREEING)
    const [chosen, region] = [...candidatesOf('IL', '60016')].sort((a, b) => b.weight - a.weight)
    expect(chosen).toMatchObject({ basis: 'usual_rate' })
    expect(combined('IL', chosen!)).toBe(rate)
    expect(region).toMatchObject({ basis: 'neighbour_region', placeName: 'NILES' })
  })

  it('a PO-box ZIP with no Census point takes its USPS city as its place (Los Angeles 90009, filed INGLEWOOD)', () => {
    expect(geography.zips.get('90009')).toMatchObject({ city: 'LOS ANGELES', zcta: false, places: [expect.objectContaining({ name: 'Los Angeles', method: 'preferred_city' })] })
    expect(rowOf('CA', '90009').taxRegionName).toBe('INGLEWOOD')
    const losAngeles = compiled.get('CA')!.rows.filter((r) => r.taxRegionName === 'LOS ANGELES' && geography.zips.has(r.zip) && topCounty(r.zip) === topCounty('90009'))
    const [chosen, region] = [...candidatesOf('CA', '90009')].sort((a, b) => b.weight - a.weight)
    expect(chosen).toMatchObject({ basis: 'usual_rate' })
    expect(combined('CA', chosen!)).toBe(commonest(losAngeles)[0])
    expect(combined('CA', chosen!)).not.toBe(rowOf('CA', '90009').combinedRate)
    expect(region).toMatchObject({ basis: 'neighbour_region', placeName: 'INGLEWOOD' })
  })

  it('a ZIP in no city filed under a nearby city\'s region answers its row without that city\'s rate (Medinah 60157 filed ROSELLE; Techny 60082, a PO-box ZIP, filed NORTHBROOK)', () => {
    for (const [zip, region] of [['60157', 'ROSELLE'], ['60082', 'NORTHBROOK']] as const) {
      const row = rowOf('IL', zip)
      expect(row.taxRegionName, zip).toBe(region)
      expect(row.cityRate, zip).toBeGreaterThan(0)
      expect(geography.zips.get(zip)!.places, zip).toEqual([])
      const [chosen, filed] = [...candidatesOf('IL', zip)].sort((a, b) => b.weight - a.weight)
      expect(chosen, zip).toMatchObject({ basis: 'usual_rate', placeName: '' })
      expect(combined('IL', chosen!), zip).toBe(row.combinedRate - row.cityRate)
      expect(filed, zip).toMatchObject({ basis: 'neighbour_region', placeName: region })
    }
  })

  it('a region holding the ZIP\'s own postal name names its community, not a neighbour (Eddy, TX 76524 filed BRUCEVILLE-EDDY keeps its city rate)', () => {
    const row = rowOf('TX', '76524')
    expect(row.taxRegionName).toBe('BRUCEVILLE-EDDY')
    expect(row.cityRate).toBeGreaterThan(0)
    expect(geography.zips.get('76524')).toMatchObject({ city: 'EDDY', places: [] })
    expect(candidatesOf('TX', '76524')).toEqual([expect.objectContaining({ weight: 1, placeName: expect.stringMatching(/BRUCEVILLE/) })])
  })

  it('a row filed under another county is answered at the rate of the rows filed under the ZIP\'s own county (Windom 56101, Cottonwood County, filed JACKSON)', () => {
    const row = rowOf('MN', '56101')
    expect(row).toMatchObject({ taxRegionName: 'JACKSON', cityRate: 0 })
    const county = topCounty('56101')
    expect(geography.counties.get(county)!.name).toMatch(/^Cottonwood/)
    const own = compiled.get('MN')!.rows.filter((r) => r.taxRegionName === 'COTTONWOOD' && geography.zips.has(r.zip) && topCounty(r.zip) === county)
    const [rate, count] = commonest(own)
    expect(count * 2).toBeGreaterThan(own.length)
    expect(rate).not.toBe(row.combinedRate)
    const [chosen, filed] = [...candidatesOf('MN', '56101')].sort((a, b) => b.weight - a.weight)
    expect(chosen).toMatchObject({ basis: 'usual_rate', countyFips: county })
    expect(combined('MN', chosen!)).toBe(rate)
    expect(filed).toMatchObject({ basis: 'neighbour_region' })
    expect(combined('MN', filed!)).toBe(row.combinedRate)
  })

  it('a region named like the ZIP\'s own county is the county\'s, not a neighbour (Hamilton, OH 45011 filed BUTLER; Washington, PA ZIPs filed WASHINGTON)', () => {
    expect(rowOf('OH', '45011').taxRegionName).toBe('BUTLER')
    expect(candidatesOf('OH', '45011')).toEqual([expect.not.objectContaining({ basis: expect.anything() })])
    expect(rowOf('PA', '15004').taxRegionName).toBe('WASHINGTON')
    expect(candidatesOf('PA', '15004')).toHaveLength(1)
  })
})

describe('what the rules change across every state of the 2025-12 edition', () => {
  it('set aside a minority of rows, each for a rate more than half of its peers (and at least MIN_AGREEING) share or its own layers without a neighbour\'s city rate, with the row kept at 1/3', () => {
    let total = 0
    for (const [state, { rows, feed }] of compiled) {
      const byZip = new Map<string, ZipCandidate[]>()
      for (const c of feed.candidates) byZip.set(c.zip, [...(byZip.get(c.zip) ?? []), c])
      const restated = [...byZip.values()].filter((list) => list.length > 1)
      total += restated.length
      expect(restated.length, state).toBeLessThan(rows.length * 0.2)
      for (const list of restated) {
        const [chosen, row] = [...list].sort((a, b) => b.weight - a.weight)
        const zip = row!.zip
        expect(chosen!.basis, `${state} ${zip}`).toBe('usual_rate')
        expect(row!.weight, `${state} ${zip}`).toBeCloseTo(1 / 3, 12)
        const published = rowOf(state, zip)
        expect(combined(state, row!), `${state} ${zip}`).toBe(published.combinedRate)
        const usual = combined(state, chosen!)
        expect(usual, `${state} ${zip}`).not.toBe(published.combinedRate)
        if (row!.basis === 'sub_zip_district') {
          // the district's part, and only it, is set aside
          expect(published.combinedRate - usual, `${state} ${zip}`).toBeGreaterThan(0)
          expect(published.combinedRate - usual, `${state} ${zip}`).toBeLessThanOrEqual(published.specialRate)
        } else {
          expect(row!.basis, `${state} ${zip}`).toBe('neighbour_region')
        }
      }
      // The notes say how many rows each rule set aside.
      const noted = feed.notes.filter((n) => /agree on is their default/.test(n)).map((n) => Number(/^(\d+) rows/.exec(n)![1]))
      expect(noted.reduce((a, b) => a + b, 0), state).toBe(restated.length)
    }
    // Thousands of ZIPs in all (rural ZIPs filed under a neighbouring county are the most), but a
    // small share of the edition's rows.
    const rows = [...compiled.values()].reduce((sum, { rows }) => sum + rows.length, 0)
    expect(total).toBeGreaterThan(1000)
    expect(total).toBeLessThan(rows * 0.06)
  })
})
