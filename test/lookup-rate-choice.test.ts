// The default answer of a ZIP over HTTP, on the real snapshots: each cause of a wrong default with
// its public cases — a sub-ZIP district folded into a ZIP, a neighbour's tax region, a flat-rate
// state's ZIP the crosswalk lacks, a shared ZIP answered by the wrong city, a city with no ZIP of
// its own — answered right by default, with the other answer a disclosed candidate.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseCdtfaWorkbook } from '../pipeline/feeds/cdtfa/workbook.ts'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import { fullLookup, simpleLookup, warningCodes, warningOf } from './support/lookup-bodies.ts'
import { servedLookups } from './support/lookup-server.ts'
import { avalaraRows, dropCombined, dropUnits } from './support/lookup-snapshots.ts'
import { sharedPath } from './support/shared.ts'

const served = servedLookups()
const CDTFA_FILE = 'SalesTaxRates1-1-26.xlsx'

const simple = (path: string) => simpleLookup(served.lookup, path)
const full = (path: string) => fullLookup(served.lookup, path)

async function cdtfaCityRate(name: string): Promise<string> {
  const workbook = await parseCdtfaWorkbook(readFileSync(sharedPath('mirror', 'cdtfa', CDTFA_FILE)), CDTFA_FILE)
  return formatRate(workbook.rows.find((row) => row.type === 'City' && row.location === name)!.rateUnits!)
}

describe('sub-ZIP district', () => {
  it('New Orleans 70112 answers the 10.00% of the rest of the city at low confidence, naming the French Quarter district; full mode lists both with weight, basis and source', async () => {
    const row = (await avalaraRows('LA', '202512')).get('70112')!
    expect(row.TaxRegionName).toBe('FRENCH QUARTER EDD')
    const zip = await simple('/v1/tax/la?zip=70112')
    expect(zip.rate.combined_rate).toBe('0.10000')
    expect(zip.meta.confidence).toBe('low')
    const district = warningOf(zip.meta.warnings, 'sub_zip_district')
    expect(district).toMatchObject({ district: 'Special districts (FRENCH QUARTER EDD)', row_combined_rate: formatRate(dropCombined(row)), answered_combined_rate: '0.10000' })
    expect(district.message).toMatch(/An address inside the district pays 0\.10245/)
    expect(warningCodes(zip.meta.warnings)).toEqual(expect.arrayContaining(['aggregator_estimate', 'ambiguous_zip5']))

    const detailed = await full('/v1/tax/la?zip=70112&mode=full')
    expect(detailed.ambiguous_zip5.candidates).toEqual([
      expect.objectContaining({ selected: true, basis: 'usual_rate', weight: 0.6667, combined_rate: '0.10000', source: 'TAXRATES_ZIP5_LA202512.csv' }),
      expect.objectContaining({ selected: false, basis: 'sub_zip_district', weight: 0.3333, combined_rate: '0.10245', combined_district_rate: '0.00245', source: 'TAXRATES_ZIP5_LA202512.csv' }),
    ])
  })

  it('a Kansas CID ZIP (Olathe 66061) answers the Olathe rate; a ZIP of the same city without a district is untouched', async () => {
    const rows = await avalaraRows('KS', '202512')
    const cid = await simple('/v1/tax/ks?zip=66061')
    expect(cid.rate.combined_rate).not.toBe(formatRate(dropCombined(rows.get('66061')!)))
    expect(warningCodes(cid.meta.warnings)).toContain('sub_zip_district')
    // The rate answered is one the other Olathe ZIPs publish.
    const olathe = [...rows.values()].filter((r) => r.TaxRegionName === 'OLATHE').map((r) => formatRate(dropCombined(r)))
    expect(olathe).toContain(cid.rate.combined_rate)
    const plain = await simple('/v1/tax/ks?zip=66062')
    expect(warningCodes(plain.meta.warnings)).not.toContain('neighbour_region')
  })
})

describe('neighbour region', () => {
  it('Scottsdale 85251, filed under PHOENIX by the aggregator, answers the Scottsdale rate, the PHOENIX row a candidate', async () => {
    const rows = await avalaraRows('AZ', '202512')
    const scottsdale = formatRate(dropCombined(rows.get('85252')!))
    expect(rows.get('85252')!.TaxRegionName).toBe('SCOTTSDALE')
    const zip = await simple('/v1/tax/az?zip=85251')
    expect(zip.rate).toMatchObject({ city: 'SCOTTSDALE', combined_rate: scottsdale })
    expect(zip.meta.confidence).toBe('medium')
    expect(warningOf(zip.meta.warnings, 'neighbour_region')).toMatchObject({ region: 'PHOENIX', row_combined_rate: formatRate(dropCombined(rows.get('85251')!)), answered_combined_rate: scottsdale })
    // An address naming the region's city picks the region's row: the caller's city chooses.
    const phoenix = await simple(`/v1/tax/az?address=${encodeURIComponent('1 Main St, Phoenix, AZ 85251')}`)
    expect(phoenix.rate).toMatchObject({ city: 'PHOENIX', combined_rate: formatRate(dropCombined(rows.get('85251')!)) })
    expect(warningCodes(phoenix.meta.warnings)).not.toContain('neighbour_region')
  })
})

describe('a ZIP in no city filed under a nearby city', () => {
  it('Flint, TX 75762 (no incorporated place), filed under NOONDAY, answers its row without Noonday\'s city rate, the row a candidate', async () => {
    const row = (await avalaraRows('TX', '202512')).get('75762')!
    expect(row.TaxRegionName).toBe('NOONDAY')
    const withoutCity = formatRate(dropCombined(row) - dropUnits(row.EstimatedCityRate!))
    const zip = await simple('/v1/tax/tx?zip=75762')
    expect(zip.rate).toMatchObject({ city: '', combined_rate: withoutCity })
    expect(zip.meta.confidence).toBe('medium')
    const neighbour = warningOf(zip.meta.warnings, 'neighbour_region')
    expect(neighbour).toMatchObject({ region: 'NOONDAY', row_combined_rate: formatRate(dropCombined(row)), answered_combined_rate: withoutCity })
    expect(neighbour.message).toMatch(/without the neighbouring city's/)
  })
})

describe('flat-rate states answer every ZIP of the state', () => {
  it('Springfield MA 01102 and Baltimore MD 21275, PO-box and unique ZIPs the crosswalk lacks, answer the statewide rate, saying why', async () => {
    // Each beside a listed ZIP of the same state: Boston 02108, Baltimore 21201.
    for (const [state, zip, listed] of [['ma', '01102', '02108'], ['md', '21275', '21201']] as const) {
      expect(served.snapshot.rates.lookupZip(zip), zip).toEqual([])
      const statewide = (await simple(`/v1/tax/${state}?zip=${listed}`)).rate.combined_rate
      const body = await full(`/v1/tax/${state}?zip=${zip}&mode=full`)
      expect(body.rate).toMatchObject({ zip, state: state.toUpperCase(), combined_rate: statewide, county: '', city: '' })
      expect(body.meta.resolved_via).toBe('static_statewide')
      expect(warningOf(body.meta.warnings, 'zip_placed_by_prefix')).toMatchObject({ prefix: zip.slice(0, 3) })
      expect(body.rows).toEqual([expect.objectContaining({ level: 'state', source_kind: 'statute' })])
      // with no state in the path, the ZIP's prefix names it
      expect((await simple(`/v1/tax/xx?zip=${zip}`)).rate.state, zip).toBe(state.toUpperCase())
    }
  })

  it('an unlisted ZIP of a state with local rates stays a 404 rather than a guess', async () => {
    const rows = await avalaraRows('TX', '202512')
    const unlisted = Array.from({ length: 1000 }, (_, n) => `75${String(n).padStart(3, '0')}`).find((zip) => !rows.has(zip) && served.snapshot.rates.lookupZip(zip).length === 0)!
    const response = await served.lookup.get(`/v1/tax/tx?zip=${unlisted}`)
    expect(response.status).toBe(404)
  })
})

describe('the city that covers the ZIP, not a tie', () => {
  it('Gardena 90248, West Hollywood 90069, Del Mar 92014 and Burlingame 94010 answer the city they are mailed as, its neighbour a candidate', async () => {
    for (const [zip, city] of [['90248', 'Gardena'], ['90069', 'West Hollywood'], ['92014', 'Del Mar'], ['94010', 'Burlingame']] as const) {
      const body = await full(`/v1/tax/ca?zip=${zip}&mode=full`)
      expect(body.rate, zip).toMatchObject({ city: city.toUpperCase(), combined_rate: await cdtfaCityRate(city) })
      const [chosen, other] = body.ambiguous_zip5.candidates
      expect(chosen, zip).toMatchObject({ selected: true, basis: 'usps_city', weight: 0.6667, source: CDTFA_FILE })
      expect(other, zip).toMatchObject({ selected: false, basis: 'zip_point', weight: 0.3333 })
      expect(body.meta.confidence, zip).toBe('medium')
    }
  })

  it('a USPS name spread over suburbs keeps the point\'s place: Plymouth 55441 (MINNEAPOLIS), Commerce 90040 (LOS ANGELES)', async () => {
    for (const [state, zip, city] of [['mn', '55441', 'PLYMOUTH'], ['ca', '90040', 'COMMERCE']] as const) {
      const body = await full(`/v1/tax/${state}?zip=${zip}&mode=full`)
      expect(body.resolved_place.usps_city, zip).not.toContain(city)
      expect(body.rate.city, zip).toContain(city)
      expect(body.ambiguous_zip5.candidates[0], zip).toMatchObject({ basis: 'zip_point', weight: 0.6667 })
    }
  })

  it('East Palo Alto, with no ZIP of its own, is a candidate of the 94303 it lies in, and an address naming it answers its own rate', async () => {
    const eastPaloAlto = await cdtfaCityRate('East Palo Alto')
    const body = await full('/v1/tax/ca?zip=94303&mode=full')
    expect(body.rate.city).toBe('PALO ALTO')
    const within = body.ambiguous_zip5.candidates.find((c) => c.city === 'EAST PALO ALTO')
    expect(within).toMatchObject({ basis: 'within_zip', selected: false, combined_rate: eastPaloAlto, county: 'SAN MATEO' })
    expect(within!.weight).toBeGreaterThan(0)
    const address = await simple(`/v1/tax/ca?address=${encodeURIComponent('2415 University Ave, East Palo Alto, CA 94303')}`)
    expect(address.rate).toMatchObject({ zip: '94303', city: 'EAST PALO ALTO', combined_rate: eastPaloAlto })
    expect(warningCodes(address.meta.warnings)).not.toContain('place_input_mismatch')
  })
})
