// Texas from the Comptroller's taxrates.txt: a file built from the documented layout
// (support/tx-rate-fixture.ts), parsed and compiled against the real TX geography.
import { beforeAll, describe, expect, it } from 'vitest'
import { compileTxComptroller } from '../pipeline/feeds/tx-comptroller/compile.ts'
import { parseTxRateFile } from '../pipeline/feeds/tx-comptroller/rate-file.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, ZipCandidate } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { TX_EDI_PAGE, TX_RATES_FILE } from '../sources/descriptor.ts'
import { defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import { stateIndex, zipsWholly } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { AMARILLO_AD, CAPITAL_METRO, HARRIS, HARRIS_ESD, HAYS, HENDERSON, HOUSTON, METRO, NOWHERE, RANDALL, SAN_MARCOS, TX_AREAS, TX_E1_AREAS, txRateFile, txUnits, type TxRow } from './support/tx-rate-fixture.ts'

const FILE = 'taxrates.txt'
const STATE_RATE = 6250
const units = txUnits

let geography: Geography
let result: FeedResult
let index: RateIndex
const compile = (text: string) => compileTxComptroller({ file: parseTxRateFile(text, FILE), stateRate: STATE_RATE, geography })
const combined = (candidate: ZipCandidate) => {
  const entry = index.lookupZip(candidate.zip).find((e) => e.state === 'TX')!
  const found = entry.candidates.find((c) => c.county?.fips === candidate.countyFips && (c.place?.geoid ?? null) === candidate.placeFips)!
  return index.combinedRate(found.stack, '2026-08-01')
}
const candidatesIn = (placeFips: string | null, countyFips: string) => result.candidates.filter((c) => c.placeFips === placeFips && c.countyFips === countyFips && c.basis !== 'within_zip')

beforeAll(async () => {
  geography = await loadMiniGeography(['TX'])
  result = compile(txRateFile())
  index = new RateIndex(writeRateIndex({ states: [{ code: 'TX', result }], zipMeta: () => undefined }))
})

describe('reading taxrates.txt', () => {
  it('reads the control record, skips the 16 filing-due-date rows and reads every area row', () => {
    const file = parseTxRateFile(txRateFile(), FILE)
    expect(file.quarter).toBe('2026Q3')
    expect(file.effectiveFrom).toBe('2026-07-01')
    expect(file.stateRate).toBe(STATE_RATE)
    expect(file.filingRows).toBe(16)
    expect(file.areas).toHaveLength(Object.keys(TX_AREAS).length)
  })

  it('reads fields 7–12 by code family, whichever of transit and district comes first', () => {
    const file = parseTxRateFile(txRateFile({ rows: [TX_AREAS.harrisUnincorporatedWithEsd, TX_AREAS.harrisUnincorporatedSpdFirst] }), FILE)
    for (const area of file.areas) {
      expect(area.districts.map((d) => [d.layer, d.code]).sort()).toEqual([['spd', HARRIS_ESD[1]], ['transit', METRO[1]]])
    }
  })

  it('reads a file with a byte-order mark like one without', () => {
    expect(parseTxRateFile(txRateFile({ bom: true }), FILE).areas).toEqual(parseTxRateFile(txRateFile(), FILE).areas)
  })

  it('sets aside a rate above the 2% local cap, naming its line, and leaves its tax out of the answers, which say so', () => {
    const percent: TxRow = [[HOUSTON[0], HOUSTON[1], '0.030000'], null, null, null]
    const rows = [...Object.values(TX_AREAS), percent]
    const file = parseTxRateFile(txRateFile({ rows }), FILE)
    expect(file.areas).toHaveLength(Object.keys(TX_AREAS).length)
    const result = compile(txRateFile({ rows }))
    const line = 17 + rows.length
    expect(result.notes.join(' ')).toContain(`${FILE}: 1 row(s) set aside, their taxes left out of every answer (line ${line}: HOUSTON (2101000) rate 0.030000 is above the 2% local cap`)
    expect(result.leftOut).toEqual([{ kind: 'rows set aside', count: 1, reason: expect.any(String), examples: [expect.stringContaining(`line ${line}:`)], windows: [{ from: null, to: null, count: 1 }] }])
  })

  it('sets aside a row of 100% or more, and fails a file whose rows are percents throughout (past the set-aside share)', () => {
    const whole: TxRow = [[HOUSTON[0], HOUSTON[1], '1.500000'], null, null, null]
    expect(parseTxRateFile(txRateFile({ rows: [...Object.values(TX_AREAS), whole] }), FILE).setAside.notes()[0]).toMatch(/HOUSTON \(2101000\) rate 1\.50000 is 100% or more: no sales tax rate/)
    const percents = Object.values(TX_AREAS).map((row) => row.map((t) => (t && t[2] !== 'n/a' ? [t[0], t[1], String(txUnits(t[2]) / 1000)] : t)) as TxRow)
    expect(() => parseTxRateFile(txRateFile({ rows: [...percents, ...percents] }), FILE)).toThrow(/rows set aside, more than 5%.*its layout or units changed/)
  })

  it('E1 reads a county code in the city fields by its family: a county area, not a refused row', () => {
    const moved: TxRow = [HAYS, null, null, null]
    const [area] = parseTxRateFile(txRateFile({ rows: [moved] }), FILE).areas
    expect(area).toMatchObject({ city: null, county: { layer: 'county', code: HAYS[1] }, countyName: HAYS[0], areaDistrict: null })
  })

  it('E1 reads filing-due-date rows padded to 12 fields with the period kind in field 2, and the absent triple written n/a ⇥ n/a ⇥ 0', () => {
    const file = parseTxRateFile(txRateFile({ paddedFiling: true, rows: [...Object.values(TX_AREAS), ...Object.values(TX_E1_AREAS)] }), FILE)
    expect(file.filingRows).toBe(16)
    expect(file.setAside.count).toBe(0)
    expect(file.areas).toHaveLength(Object.keys(TX_AREAS).length + Object.keys(TX_E1_AREAS).length)
  })

  it('E1 reads a district code in fields 1–3 as the area\'s district, and keeps the name of a county printed with code n/a', () => {
    const [district, , rusk, henderson] = parseTxRateFile(txRateFile({ rows: Object.values(TX_E1_AREAS) }), FILE).areas
    expect(district).toMatchObject({ city: null, county: { code: RANDALL[1] }, areaDistrict: { layer: 'spd', code: AMARILLO_AD[1] }, districts: [{ code: AMARILLO_AD[1] }] })
    expect(rusk).toMatchObject({ city: null, county: null, countyName: 'Rusk', districts: [] })
    expect(henderson).toMatchObject({ city: { code: HENDERSON[1] }, county: null, countyName: 'Rusk' })
  })

  it('refuses a file whose control record is missing (a header or blank line moved in front of it)', () => {
    expect(() => parseTxRateFile(`CITY NAME\tCITY CODE\r\n${txRateFile()}`, FILE)).toThrow(/line 1: not the control record/)
  })

  it('refuses a file holding fewer area rows than its control record declares (truncated)', () => {
    expect(() => parseTxRateFile(txRateFile({ declared: 3715 }), FILE)).toThrow(/declares 3715 rows, the file holds 9 area rows/)
  })
})

describe('compiling Texas', () => {
  it('answers a Houston ZIP with state, city and transit, and no county tax where Harris prints none', () => {
    const [houston] = candidatesIn('4835000', '48201')
    expect(houston).toBeDefined()
    expect(combined(houston!)).toBe(STATE_RATE + units(HOUSTON[2]) + units(METRO[2]))
  })

  it('keeps a transit layer every unincorporated area of a county lists, and discloses a district only some list', () => {
    const [outside] = candidatesIn(null, '48201')
    expect(outside).toBeDefined()
    expect(combined(outside!)).toBe(STATE_RATE + units(METRO[2]))
    const esd = result.unplaced.find((u) => u.code === HARRIS_ESD[1])
    expect(esd).toMatchObject({ level: 'district', rate: units(HARRIS_ESD[2]), counties: ['48201'] })
    expect(esd!.reason).toMatch(/only some of the areas of Harris County outside its cities/)
  })

  it('does not read a county rate from a City/County Co row: Austin in Hays answers without the Hays tax, Hays outside cities with it', () => {
    const austinInHays = candidatesIn('4805000', '48209')
    expect(austinInHays.length).toBeGreaterThan(0)
    for (const candidate of austinInHays) expect(combined(candidate)).toBe(STATE_RATE + units(TX_AREAS.austin[0]![2]) + units(CAPITAL_METRO[2]))
    const haysOutside = candidatesIn(null, '48209')
    expect(haysOutside.length).toBeGreaterThan(0)
    for (const candidate of haysOutside) expect(combined(candidate)).toBe(STATE_RATE + units(HAYS[2]))
    const sanMarcos = candidatesIn('4865600', '48209')
    expect(sanMarcos.length).toBeGreaterThan(0)
    for (const candidate of sanMarcos) expect(combined(candidate)).toBe(STATE_RATE + units(HAYS[2]) + units(SAN_MARCOS[2]))
  })

  it('discloses a city code that binds to no Census place as unplaced, never summed in', () => {
    const nowhere = result.unplaced.find((u) => u.code === NOWHERE[1])
    expect(nowhere).toMatchObject({ level: 'city', rate: units(NOWHERE[2]), counties: ['48201'] })
    expect(nowhere!.reason).toMatch(/binds to no Census place of that name in Harris County/)
    expect(result.candidates.some((c) => c.stack.some((ref) => ref.code === NOWHERE[1]))).toBe(false)
  })

  it('gives a ZIP spanning places candidates with shares summing to its weight, as for the SST states', () => {
    const byZip = new Map<string, number>()
    for (const c of result.candidates) byZip.set(c.zip, (byZip.get(c.zip) ?? 0) + c.weight)
    for (const total of byZip.values()) expect(total).toBeCloseTo(1, 6)
    expect(result.edition).toBe('2026Q3')
    expect(result.jurisdictions.every((j) => j.from === '2026-07-01' && j.source === FILE)).toBe(true)
  })

  it('E1 places the areas of a county levying nothing by its name: Henderson answers its city tax, Rusk outside cities the state rate', () => {
    const e1 = compile(txRateFile({ rows: [...Object.values(TX_AREAS), ...Object.values(TX_E1_AREAS)] }))
    const e1Index = new RateIndex(writeRateIndex({ states: [{ code: 'TX', result: e1 }], zipMeta: () => undefined }))
    const total = (c: ZipCandidate) => {
      const entry = e1Index.lookupZip(c.zip).find((e) => e.state === 'TX')!
      const found = entry.candidates.find((x) => x.county?.fips === c.countyFips && (x.place?.geoid ?? null) === c.placeFips)!
      return e1Index.combinedRate(found.stack, '2026-08-01')
    }
    const henderson = e1.candidates.filter((c) => c.countyFips === '48401' && c.placeName === 'Henderson' && c.basis !== 'within_zip')
    const outside = e1.candidates.filter((c) => c.countyFips === '48401' && c.placeFips === null)
    expect(henderson.length).toBeGreaterThan(0)
    expect(outside.length).toBeGreaterThan(0)
    for (const c of henderson) expect(total(c)).toBe(STATE_RATE + units(HENDERSON[2]))
    for (const c of outside) expect(total(c)).toBe(STATE_RATE)
    expect(e1.notes.join(' ')).not.toMatch(/county Rusk/)
  })

  it('E1 discloses the district of an area named by a district code as unplaced in its county, never summed in, and reads the county\'s rate beside it', () => {
    const e1 = compile(txRateFile({ rows: [...Object.values(TX_AREAS), ...Object.values(TX_E1_AREAS)] }))
    expect(e1.unplaced.find((u) => u.code === AMARILLO_AD[1])).toMatchObject({ level: 'district', rate: units(AMARILLO_AD[2]), counties: ['48381'] })
    expect(e1.candidates.some((c) => c.stack.some((ref) => ref.code === AMARILLO_AD[1]))).toBe(false)
    expect(e1.jurisdictions.find((j) => j.level === 'county' && j.name === 'Randall')?.rate).toBe(units(RANDALL[2]))
    expect(e1.notes.join(' ')).toMatch(/1 area\(s\) are named by a special-purpose or assistance district code in the city fields/)
  })

  it('keeps a county by its FIPS code with the Comptroller code a return names it by, read back from rates.bin', () => {
    expect(result.jurisdictions.find((j) => j.level === 'county' && j.code === '209')).toMatchObject({ name: 'Hays', filingCode: HAYS[1] })
    expect(index.filingCode('TX', 'county', '209')).toBe(HAYS[1])
    expect(index.filingCode('TX', 'county', '201')).toBe(HARRIS[1])
    // A city is kept by its Comptroller code itself: nothing beside it.
    expect(index.filingCode('TX', 'city', HOUSTON[1])).toBeNull()
    expect(index.filingCode('TX', 'county', '999')).toBeNull()
  })

  it('refuses a file whose state rate is not the rules table’s', () => {
    expect(() => compileTxComptroller({ file: parseTxRateFile(txRateFile(), FILE), stateRate: 6000, geography })).toThrow(/control record prints state rate 0.06250, the rules table says 0.06000/)
  })
})

describe('through the publisher replica, as production runs', () => {
  const NOW = '2026-08-21T03:00:00.000Z'
  const ediPage = `<!DOCTYPE html><html><head><title>Sales Tax Rates EDI | Texas Comptroller</title></head><body><h1>Sales Tax Rate Files</h1><ul><li><a href="${new URL(TX_RATES_FILE).pathname}">Current quarter (taxrates.txt)</a></li><li><a href="/taxes/sales/city.php">City rates</a></li></ul></body></html>`

  it('finds taxrates.txt from the EDI page at comptroller.texas.gov through the proxy, read in the shapes of E1 (padded filing rows, a district code in the city fields, a county printing only its name)', async () => {
    const load = await loadFeedAtPublisher('TX', NOW, [new URL(TX_EDI_PAGE).host], async (replica) => {
      replica.answer(TX_EDI_PAGE, { kind: 'page', html: ediPage })
      await replica.serveBytes(TX_RATES_FILE, txRateFile({ paddedFiling: true, rows: [...Object.values(TX_AREAS), ...Object.values(TX_E1_AREAS)] }))
    })
    const loaded = loadedFeed(load)
    expect(loaded.choices[0]).toMatchObject({ request: { fileName: FILE, officialUrl: TX_RATES_FILE } })
    expect(loaded.result.edition).toBe('2026Q3')
    expect(loaded.result.leftOut).toBeUndefined()
    expect(loaded.result.unplaced.find((u) => u.code === AMARILLO_AD[1])).toMatchObject({ counties: ['48381'] })
    const outsideRusk = zipsWholly(loaded.result, '48401', null)
    expect(outsideRusk.length).toBeGreaterThan(0)
    expect(defaultCombinedRate(stateIndex('TX', loaded.result), outsideRusk[0]!, 'TX', NOW.slice(0, 10))).toBe(STATE_RATE)
    expect(load.tunnels).toContain(new URL(TX_EDI_PAGE).host)
  }, 120_000)
})
