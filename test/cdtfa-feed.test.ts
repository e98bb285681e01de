// California CDTFA workbook: parsing the real 2026-01-01 edition and compiling it onto the real
// HUD/Geocorr geography for CA.
import { readFileSync } from 'node:fs'
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import readXlsxFile from 'read-excel-file/node'
import { beforeAll, describe, expect, it } from 'vitest'
import { cdtfaEditionDate, compileCdtfa, parseCdtfaWorkbook, type CdtfaWorkbook } from '../pipeline/feeds/cdtfa/workbook.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { dataFromIndex } from '../pipeline/run/carry-over.ts'
import type { FeedResult, PlaceStack, ZipCandidate } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { RULES_TABLE_AS_OF, stateFacts, stateRateOn } from '../sources/state-facts.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { sharedPath } from './support/shared.ts'

const FILE_NAME = 'SalesTaxRates1-1-26.xlsx'
const bytes = readFileSync(sharedPath('mirror', 'cdtfa', FILE_NAME))
const CA_STATEWIDE = stateRateOn(stateFacts('CA')!, RULES_TABLE_AS_OF)!

/** The real workbook with some shared strings replaced (the header cells live there). */
function withStrings(replacements: Record<string, string>): Buffer {
  const files = unzipSync(new Uint8Array(bytes))
  let strings = strFromU8(files['xl/sharedStrings.xml']!)
  for (const [from, to] of Object.entries(replacements)) strings = strings.replace(`<t>${from}</t>`, `<t>${to}</t>`)
  files['xl/sharedStrings.xml'] = strToU8(strings)
  return Buffer.from(zipSync(files))
}

describe('parseCdtfaWorkbook', () => {
  let workbook: CdtfaWorkbook
  beforeAll(async () => {
    workbook = await parseCdtfaWorkbook(bytes, FILE_NAME)
  })

  it('reads every row below the title and header: 483 cities, 58 counties, 5 unincorporated areas', () => {
    const count = (type: string) => workbook.rows.filter((row) => row.type === type).length
    expect(workbook.editionDate).toBe('2026-01-01')
    expect(count('City')).toBe(483)
    expect(count('County')).toBe(58)
    expect(count('Unincorporated')).toBe(5)
    expect(workbook.rows).toHaveLength(546)
  })

  it('reads Los Angeles at the workbook value 9.75% without float drift', async () => {
    const [sheet] = await readXlsxFile(bytes)
    const raw = sheet!.data.find((row) => row[0] === 'Los Angeles')!
    expect(raw.slice(0, 4)).toEqual(['Los Angeles', 0.0975, 'Los Angeles', 'City'])
    expect(workbook.rows.find((row) => row.location === 'Los Angeles')).toEqual({
      location: 'Los Angeles',
      rateUnits: 9750,
      county: 'Los Angeles',
      type: 'City',
      notes: '',
    })
    // Every CA rate is a multiple of 1/40 % (25 units); a float-truncation slip would break that.
    for (const row of workbook.rows) if (row.rateUnits !== null) expect(row.rateUnits % 25, row.location).toBe(0)
  })

  it('keeps the five rate-less county rows and their separate unincorporated-area rows', () => {
    const blank = workbook.rows.filter((row) => row.rateUnits === null)
    expect(blank.map((row) => row.location)).toEqual(['Del Norte County', 'Kern County', 'Monterey County', 'Santa Cruz County', 'Yuba County'])
    expect(blank.every((row) => row.type === 'County')).toBe(true)
    expect(workbook.rows.find((row) => row.location === 'Kern County Unincorporated Area')).toMatchObject({
      type: 'Unincorporated',
      county: 'Kern',
      rateUnits: 8250,
      notes: expect.stringMatching(/applies only to unincorporated areas of Kern County/),
    })
  })

  it('fails on a changed column layout, naming the expected and the found header', async () => {
    await expect(parseCdtfaWorkbook(withStrings({ Notes: 'Remarks' }), FILE_NAME)).rejects.toThrow(
      /changed column layout: expected a header row "Location, Rate, County, Type, Notes", found .*"Location, Rate, County, Type, Remarks"/,
    )
    await expect(parseCdtfaWorkbook(withStrings({ Rate: 'Tax Rate' }), FILE_NAME)).rejects.toThrow(/found .*Location, Tax Rate, County/)
  })

  it('fails when a county row has no rate and no unincorporated-area row', async () => {
    const renamed = withStrings({ 'Kern County Unincorporated Area': 'Kern Unincorporated' })
    await expect(parseCdtfaWorkbook(renamed, FILE_NAME)).rejects.toThrow(/Kern County has no rate and no "Unincorporated Area" row/)
  })

  it('takes the edition date from the file name', () => {
    expect(cdtfaEditionDate('SalesTaxRates1-1-26.xlsx')).toBe('2026-01-01')
    expect(cdtfaEditionDate('build/raw/ca/salestaxrates10-1-25.XLSX')).toBe('2025-10-01')
    expect(() => cdtfaEditionDate('SalesTaxRates.xlsx')).toThrow(/SalesTaxRates<M>-<D>-<YY>/)
    expect(() => cdtfaEditionDate('SalesTaxRates2-30-26.xlsx')).toThrow(/invalid date/)
  })
})

describe('compileCdtfa', () => {
  let geography: Geography
  let workbook: CdtfaWorkbook
  let feed: FeedResult
  let rateOf: (level: string, code: string) => number | undefined
  const combined = (candidate: ZipCandidate) => candidate.stack.reduce((sum, ref) => sum + rateOf(ref.level, ref.code)!, 0)
  const candidatesOf = (zip: string) => feed.candidates.filter((c) => c.zip === zip)

  beforeAll(async () => {
    geography = await loadMiniGeography(['CA'])
    workbook = await parseCdtfaWorkbook(bytes, FILE_NAME)
    feed = compileCdtfa({ workbook, fileName: FILE_NAME, statewideRate: CA_STATEWIDE, geography })
    const rates = new Map(feed.jurisdictions.map((j) => [`${j.level}|${j.code}`, j.rate]))
    rateOf = (level, code) => rates.get(`${level}|${code}`)
  })

  it('splits the statewide 7.25% (state level) from the district taxes above it', () => {
    expect(CA_STATEWIDE).toBe(7250)
    expect(feed.jurisdictions.find((j) => j.level === 'state')).toMatchObject({ code: 'CA', rate: 7250 })
    expect(rateOf('district', 'city:LOS ANGELES')).toBe(2500)
    expect(feed.notes[0]).toMatch(/Bradley-Burns/)
  })

  it('gives a ZIP in the city of Sacramento the city district (8.75% combined)', () => {
    const [downtown] = candidatesOf('95814')
    expect(downtown).toMatchObject({ countyFips: '06067', placeFips: '0664000', placeName: 'Sacramento', weight: 1 })
    expect(downtown!.stack).toEqual([
      { level: 'state', code: 'CA' },
      { level: 'county', code: '067' },
      { level: 'city', code: '64000' },
      { level: 'district', code: 'city:SACRAMENTO' },
    ])
    expect(combined(downtown!)).toBe(workbook.rows.find((row) => row.location === 'Sacramento')!.rateUnits)
  })

  it('gives an unincorporated ZIP (Carmichael 95608) the county unincorporated district (7.75%)', () => {
    const [carmichael] = candidatesOf('95608')
    expect(carmichael!.stack).toEqual([{ level: 'state', code: 'CA' }, { level: 'county', code: '067' }, { level: 'district', code: 'county:SACRAMENTO' }])
    expect(combined(carmichael!)).toBe(7750)
  })

  it('uses the separate unincorporated-area row for the five quirk counties (Kern 8.25%)', () => {
    expect(rateOf('district', 'county:KERN')).toBe(1000)
    expect(rateOf('district', 'county:YUBA')).toBe(1000)
    expect(rateOf('district', 'county:MONTEREY')).toBe(1500)
    expect(rateOf('district', 'county:SANTA CRUZ')).toBe(2250)
    expect(rateOf('district', 'county:DEL NORTE')).toBe(1000)
    const [caliente] = candidatesOf('93518')
    expect(combined(caliente!)).toBe(8250)
  })

  it('P28 splits a cross-county ZIP by address share: Dinuba 93618 (Tulare city, Fresno unincorporated)', () => {
    const dinuba = candidatesOf('93618')
    expect(dinuba.map((c) => c.countyFips)).toEqual(['06107', '06019'])
    expect(dinuba[0]).toMatchObject({ placeName: 'Dinuba' })
    expect(dinuba[0]!.weight).toBeGreaterThan(0.98)
    expect(dinuba[1]!.stack.at(-1)).toEqual({ level: 'district', code: 'county:FRESNO' })
    expect(dinuba[0]!.weight + dinuba[1]!.weight).toBeCloseTo(1, 12)
  })

  it('answers every CA ZIP with weights summing to 1 and a combined rate CDTFA publishes', () => {
    const published = new Set(workbook.rows.map((row) => row.rateUnits))
    const caZips = [...geography.zips.values()].filter((zip) => zip.state === 'CA')
    const byZip = new Map<string, ZipCandidate[]>()
    for (const c of feed.candidates) byZip.set(c.zip, [...(byZip.get(c.zip) ?? []), c])
    expect(byZip.size).toBe(caZips.length)
    for (const [zip, candidates] of byZip) {
      expect(candidates.reduce((sum, c) => sum + c.weight, 0), zip).toBeCloseTo(1, 9)
      for (const candidate of candidates) expect(published.has(combined(candidate)), zip).toBe(true)
    }
  })

  it('a city no ZIP is bound to (Cudahy, which shares 90201 with Bell and Bell Gardens) keeps its own stack at its CDTFA rate', () => {
    const cudahy = [...geography.places.values()].find((place) => place.state === 'CA' && place.name === 'Cudahy')!
    expect(feed.candidates.some((c) => c.placeFips === cudahy.geoid)).toBe(false)
    const own = (feed.placeStacks ?? []).filter((p) => p.placeFips === cudahy.geoid)
    expect(own.map((p) => p.countyFips)).toEqual(['06037'])
    expect(combined({ ...own[0]!, zip: '00000', state: 'CA', weight: 1 })).toBe(workbook.rows.find((row) => row.type === 'City' && row.location === 'Cudahy')!.rateUnits)
    // Every place with a stack of its own is a city whose district no ZIP carries, and is still listed unplaced.
    const unplacedCodes = new Set(feed.unplaced.map((u) => u.code))
    for (const place of feed.placeStacks ?? []) {
      expect(unplacedCodes.has(place.stack.find((ref) => ref.level === 'district')!.code), place.placeName).toBe(true)
    }
  })

  it('the rates index keeps those stacks by place, and a refresh that carries the state over reads them back', () => {
    const index = new RateIndex(writeRateIndex({ states: [{ code: 'CA', result: feed }], zipMeta: () => undefined }))
    const cudahy = feed.placeStacks!.find((p) => p.placeName === 'Cudahy')!
    const [candidate, ...more] = index.placeCandidates('CA', cudahy.placeFips)
    expect(more).toEqual([])
    expect(candidate).toMatchObject({ county: { fips: '06037' }, place: { geoid: cudahy.placeFips, name: 'Cudahy' }, weight: 1 })
    expect(index.combinedRate(candidate!.stack, '2026-01-01')).toBe(workbook.rows.find((row) => row.type === 'City' && row.location === 'Cudahy')!.rateUnits)
    expect(index.placeCandidates('CA', '0604870')).toEqual([]) // Bell has ZIPs of its own
    const sorted = (stacks: PlaceStack[]) => stacks.map((p) => ({ ...p, stack: [...p.stack].sort((a, b) => `${a.level}${a.code}`.localeCompare(`${b.level}${b.code}`)) }))
    expect(sorted(dataFromIndex(index, 'CA').placeStacks!)).toEqual(sorted(feed.placeStacks!))
    // An index without place stacks (no p.* sections, as written before they existed) reads as having none.
    const older = new RateIndex(writeRateIndex({ states: [{ code: 'CA', result: { ...feed, placeStacks: undefined } }], zipMeta: () => undefined }))
    expect(older.placeCandidates('CA', cudahy.placeFips)).toEqual([])
  })

  it('P29 keeps every CA county (rate 0, named from geography) and every CDTFA city (rate 0)', () => {
    const counties = feed.jurisdictions.filter((j) => j.level === 'county')
    expect(counties).toHaveLength(58)
    expect(counties.every((j) => j.rate === 0)).toBe(true)
    expect(counties.find((j) => j.code === '037')?.name).toBe('Los Angeles')
    const cities = feed.jurisdictions.filter((j) => j.level === 'city')
    expect(cities).toHaveLength(483)
    expect(cities.every((j) => j.rate === 0)).toBe(true)
    const keys = feed.jurisdictions.map((j) => `${j.level}|${j.code}`)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('matches CDTFA names to Census places: "City of Industry", "Angels Camp", "St. Helena", "Ventura"', () => {
    const cityCode = (location: string) => feed.jurisdictions.find((j) => j.level === 'city' && j.name === location)?.code
    expect(cityCode('City of Industry')).toBe('36490') // Census "Industry city"
    expect(cityCode('City of Commerce')).toBe('14974')
    expect(cityCode('Angels Camp')).toBe('02112') // Census "Angels city"
    expect(cityCode('St. Helena')).toBe('64140')
    expect(cityCode('Ventura')).toBe('65042') // Census "San Buenaventura (Ventura) city"
    expect(cityCode('Paso Robles')).toBe('22300') // Census "El Paso de Robles (Paso Robles) city"
    expect(rateOf('district', 'city:SAINT HELENA')).toBe(1000)
    expect(rateOf('district', 'city:INDUSTRY')).toBe(2500)
  })

  it('reports every city district no ZIP carries as unplaced, with a reason', () => {
    const used = new Set(feed.candidates.flatMap((c) => c.stack.filter((ref) => ref.level === 'district').map((ref) => ref.code)))
    const unplaced = new Set(feed.unplaced.map((u) => u.code))
    for (const row of workbook.rows.filter((r) => r.type === 'City')) {
      const code = feed.jurisdictions.find((j) => j.level === 'district' && j.name === `${row.location} district taxes`)!.code
      expect(used.has(code) !== unplaced.has(code), row.location).toBe(true)
    }
    for (const u of feed.unplaced) expect(u.reason).toMatch(/no geography place|no ZIP is bound|no ZIP of county/)
  })

  it('dates every row from the edition in the file name', () => {
    expect(feed).toMatchObject({ edition: '2026-01-01', effectiveThrough: '2026-01-01', effectiveDateBasis: 'edition_only', rowsRead: 546, rowsParsed: 546 })
    for (const j of feed.jurisdictions) expect(j).toMatchObject({ from: '2026-01-01', to: null, source: FILE_NAME })
  })

  it('refuses a statewide rate above a published combined rate', () => {
    expect(() => compileCdtfa({ workbook, fileName: FILE_NAME, statewideRate: 8000, geography })).toThrow(/below the statewide 8000/)
  })
})
