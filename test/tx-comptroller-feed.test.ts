// Texas from the Comptroller's taxrates.txt: a file built from the documented layout
// (support/tx-rate-fixture.ts), parsed and compiled against the real TX geography.
import { beforeAll, describe, expect, it } from 'vitest'
import { compileTxComptroller } from '../pipeline/feeds/tx-comptroller/compile.ts'
import { parseTxRateFile } from '../pipeline/feeds/tx-comptroller/rate-file.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, ZipCandidate } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { CAPITAL_METRO, HARRIS, HARRIS_ESD, HAYS, HOUSTON, METRO, NOWHERE, SAN_MARCOS, TX_AREAS, txRateFile, txUnits, type TxRow } from './support/tx-rate-fixture.ts'

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

  it('refuses a percent where a fraction is expected, naming the row', () => {
    const percent: TxRow = [[HOUSTON[0], HOUSTON[1], '1.000000'], null, null, null]
    expect(() => parseTxRateFile(txRateFile({ rows: [percent] }), FILE)).toThrow(/line 18: HOUSTON \(2101000\) rate 1\.000000 is above the 2% local cap: a percent where a fraction is expected/)
  })

  it('refuses a county code where the city code belongs', () => {
    const moved: TxRow = [HAYS, null, null, null]
    expect(() => parseTxRateFile(txRateFile({ rows: [moved] }), FILE)).toThrow(/fields 1–3 hold a county code 4105001, not a city code/)
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
