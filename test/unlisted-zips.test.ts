// P28 (the ZIP list is not the ZCTA list, nor HUD's): CA ZIPs the HUD crosswalk lacks, placed by the
// region name Avalara's real 2025-12 CA edition gives them, with the official CDTFA rates of that place.
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseAvalaraZip5, type AvalaraRow } from '../pipeline/feeds/aggregator-drop.ts'
import { compileCdtfa, parseCdtfaWorkbook } from '../pipeline/feeds/cdtfa/workbook.ts'
import { placeUnlistedZips } from '../pipeline/feeds/unlisted-zips.ts'
import { buildGeography } from '../pipeline/geography/build-geography.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult, ZipCandidate } from '../snapshot-contract/model.ts'
import { RULES_TABLE_AS_OF, stateFacts, stateRateOn } from '../sources/state-facts.ts'
import { sharedPath } from './support/shared.ts'

const CDTFA_FILE = 'SalesTaxRates1-1-26.xlsx'
const DROP_FILE = 'TAXRATES_ZIP5_CA202512.csv'

describe('placeUnlistedZips (P28)', () => {
  let geography: Geography
  let official: FeedResult
  let rows: AvalaraRow[]
  let placed: FeedResult
  let unitsOf: (candidate: ZipCandidate) => number
  const only = (result: FeedResult, zip: string) => {
    const found = result.candidates.filter((c) => c.zip === zip)
    expect(found, zip).toHaveLength(1)
    return found[0]!
  }
  const place = (rows: AvalaraRow[]) => placeUnlistedZips(official, { state: 'CA', geography, rows, edition: '202512' })

  beforeAll(async () => {
    geography = await buildGeography(sharedPath('geo'), { states: ['CA'] })
    const workbook = await parseCdtfaWorkbook(readFileSync(sharedPath('mirror', 'cdtfa', CDTFA_FILE)), CDTFA_FILE)
    official = compileCdtfa({ workbook, fileName: CDTFA_FILE, statewideRate: stateRateOn(stateFacts('CA')!, RULES_TABLE_AS_OF)!, geography })
    rows = parseAvalaraZip5(readFileSync(sharedPath('drops', 'avalara-zip5', '202512', DROP_FILE), 'utf8'), DROP_FILE).rows
    placed = place(rows)
    const rates = new Map(official.jurisdictions.map((j) => [`${j.level}|${j.code}`, j.rate]))
    unitsOf = (candidate) => candidate.stack.reduce((sum, ref) => sum + rates.get(`${ref.level}|${ref.code}`)!, 0)
  })

  it('gives every listed ZIP the geography lacks one candidate, and leaves every other ZIP as it was', () => {
    const unlisted = rows.filter((row) => !geography.zips.has(row.zip)).map((row) => row.zip)
    expect(unlisted.length).toBeGreaterThan(0)
    expect(unlisted.some((zip) => official.candidates.some((c) => c.zip === zip))).toBe(false)
    for (const zip of unlisted) expect(placed.candidates.filter((c) => c.zip === zip), zip).toHaveLength(1)
    expect(placed.candidates.slice(0, official.candidates.length)).toEqual(official.candidates)
    expect(placed.candidates).toHaveLength(official.candidates.length + unlisted.length)
    expect(placed.notes.at(-1)).toBe(
      `${unlisted.length} ZIPs the ZIP geography lacks (PO-box and unique ZIPs) placed by their tax region name in Avalara edition 202512, with the official rates of their place; they answer at low confidence`,
    )
  })

  it('takes the place from the region name and the rates from another ZIP of that county and place', () => {
    const losAngeles = only(official, '90012')
    expect(only(placed, '90080')).toEqual({ ...losAngeles, zip: '90080' })
    // "SACRAMENTO TMD ZONE 1" (the State of California's own ZIPs): the city, by its leading words.
    expect(only(placed, '94203')).toMatchObject({ countyFips: '06067', placeFips: '0664000', stack: only(official, '95814').stack })
    // "SANTA CLARA CO LOCAL TAX SL" names the county, not the city of Santa Clara; "KERN" the county alone.
    expect(only(placed, '95042')).toMatchObject({ countyFips: '06085', placeFips: null })
    expect(only(placed, '93519')).toMatchObject({ countyFips: '06029', placeFips: null })
  })

  it("agrees with the aggregator's own figure for nearly every ZIP it placed (only the place was taken from it)", () => {
    const byZip = new Map(rows.map((row) => [row.zip, row]))
    const added = placed.candidates.slice(official.candidates.length)
    const agreeing = added.filter((c) => unitsOf(c) === byZip.get(c.zip)!.combinedRate)
    expect(agreeing.length / added.length).toBeGreaterThan(0.9)
  })

  it('leaves a ZIP whose region names no place or county of the state unplaced, with a note naming it', () => {
    const renamed = rows.map((row) => (row.zip === '90080' ? { ...row, taxRegionName: 'NOWHERE TOURISM DISTRICT' } : row))
    const result = place(renamed)
    expect(result.candidates.some((c) => c.zip === '90080')).toBe(false)
    expect(result.notes.at(-1)).toBe('1 ZIP it lacks left unplaced (no place or county of the state by that name carries rates): 90080 (NOWHERE TOURISM DISTRICT)')
  })

  it('returns the result itself when the edition lists no ZIP the geography lacks', () => {
    const listed = rows.filter((row) => geography.zips.has(row.zip))
    expect(place(listed)).toBe(official)
  })
})
