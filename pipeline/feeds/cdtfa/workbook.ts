// California: CDTFA "Effective Sales and Use Tax Rates" workbook (SalesTaxRates<M>-<D>-<YY>.xlsx).
//
// Model. CDTFA publishes one combined rate per city and per county's unincorporated area. The
// statewide 7.25% (6% state + the uniform 1.25% Bradley-Burns local share, which applies at every
// address) is the state level. Everything above it is California "district tax" (voter-approved
// transactions and use taxes): each city row becomes one district jurisdiction `city:<NAME>` with
// rate = city combined − 7.25%, and each county's unincorporated rate becomes `county:<NAME>` with
// rate = unincorporated combined − 7.25%. The individual districts inside those sums (CDTFA-105)
// are not split out — we transcribe the combined rate the publisher prints (trap P40).
// County and city jurisdictions themselves carry rate 0 so names resolve (trap P29).
import { readWorkbookSheets } from '../../fetch/workbook-sheets.ts'
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import { placeMatchWords, placesByMatchKey } from '../../../snapshot-contract/place-names.ts'
import type { FeedResult, JurisdictionRef, PlaceStack, RawFile, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate, rateUnitsFromSpreadsheetNumber } from '../../../snapshot-contract/rate-units.ts'
import { JurisdictionTable, countyCode, countyMatchKey, placeCode, placeStacksNotes, placeStacksOf, withinZipCandidates } from '../candidate-weights.ts'
import { noCountyNotes, placeBoundCandidates, placeNamedIn } from '../place-bound-candidates.ts'
import { findHeaderRow } from '../header-row.ts'
import { slashDateIso } from '../printed-dates.ts'

export type CdtfaRowType = 'City' | 'County' | 'Unincorporated'

export type CdtfaRow = {
  location: string
  /** null only on the county rows that defer to a separate "… County Unincorporated Area" row */
  rateUnits: number | null
  county: string
  type: CdtfaRowType
  notes: string
}

export type CdtfaWorkbook = { fileName: string; editionDate: string; rows: CdtfaRow[] }

const STATE = 'CA'
const HEADER = ['Location', 'Rate', 'County', 'Type', 'Notes'] as const
const HEADER_SEARCH_ROWS = 20
const UNINCORPORATED = / County Unincorporated Area$/i

/** `SalesTaxRates1-1-26.xlsx` → `2026-01-01`. */
export function cdtfaEditionDate(fileName: string): string {
  const match = /^SalesTaxRates(\d{1,2})-(\d{1,2})-(\d{2})\.xlsx$/i.exec(fileName.split(/[\\/]/).pop() ?? '')
  if (!match) throw new Error(`${fileName}: not a CDTFA workbook name (expected SalesTaxRates<M>-<D>-<YY>.xlsx)`)
  const [, month, day, year] = match
  const iso = slashDateIso(month!, day!, year!)
  const valid = !Number.isNaN(Date.parse(iso)) && new Date(`${iso}T00:00:00Z`).toISOString().startsWith(iso)
  if (!valid) throw new Error(`${fileName}: file name holds an invalid date ${iso}`)
  return iso
}

type Cell = string | number | boolean | object | null

const cellText = (cell: Cell | undefined): string => (cell === null || cell === undefined ? '' : String(cell).trim())

/** The header row and each of its columns, in HEADER's order (header-row.ts: compared without case, spaces or punctuation). */
function findHeader(data: Cell[][], fileName: string): { at: number; columns: number[] } {
  const { at, index } = findHeaderRow(data, fileName, { columns: Object.fromEntries(HEADER.map((name) => [name, name])) as Record<(typeof HEADER)[number], string>, searchRows: HEADER_SEARCH_ROWS, what: "CDTFA's rates workbook" })
  return { at, columns: HEADER.map((name) => index[name]) }
}

function parseRow(cells: Cell[], columns: number[], where: string): CdtfaRow {
  const [location, rate, county, type, notes] = columns.map((column) => cells[column] ?? null)
  const name = cellText(location)
  const countyName = cellText(county)
  const published = cellText(type)
  if (!name || !countyName) throw new Error(`${where}: blank Location or County`)
  if (published !== 'City' && published !== 'County') throw new Error(`${where}: unknown Type ${JSON.stringify(published)}`)
  const rowType: CdtfaRowType = published === 'County' && UNINCORPORATED.test(name) ? 'Unincorporated' : published
  let rateUnits: number | null = null
  if (rate !== null && cellText(rate) !== '') {
    if (typeof rate !== 'number') throw new Error(`${where}: Rate ${JSON.stringify(rate)} is not a number`)
    const parsed = rateUnitsFromSpreadsheetNumber(rate)
    if (!parsed.ok) throw new Error(`${where}: ${parsed.reason}`)
    rateUnits = parsed.units
  }
  if (rateUnits === null && rowType !== 'County') throw new Error(`${where}: ${name} has no rate`)
  return { location: name, rateUnits, county: countyName, type: rowType, notes: cellText(notes) }
}

/** Checks the five-county quirk: a rate-less county row must be backed by an unincorporated-area row. */
function checkCounties(rows: CdtfaRow[], fileName: string): void {
  const seen = new Set<string>()
  for (const row of rows.filter((r) => r.type === 'County')) {
    if (seen.has(row.county)) throw new Error(`${fileName}: county ${row.county} listed twice`)
    seen.add(row.county)
    const unincorporated = rows.filter((r) => r.type === 'Unincorporated' && r.county === row.county)
    if (unincorporated.length > 1) throw new Error(`${fileName}: ${row.county} has several unincorporated-area rows`)
    if (row.rateUnits === null && unincorporated.length === 0) {
      throw new Error(`${fileName}: ${row.location} has no rate and no "Unincorporated Area" row`)
    }
    if (row.rateUnits !== null && unincorporated[0] && unincorporated[0].rateUnits !== row.rateUnits) {
      throw new Error(`${fileName}: ${row.location} and its unincorporated-area row disagree`)
    }
  }
  for (const row of rows.filter((r) => r.type === 'Unincorporated')) {
    if (!seen.has(row.county)) throw new Error(`${fileName}: ${row.location} has no county row`)
  }
}

export async function parseCdtfaWorkbook(bytes: Buffer, fileName: string): Promise<CdtfaWorkbook> {
  const editionDate = cdtfaEditionDate(fileName)
  const sheets = await readWorkbookSheets(bytes, fileName)
  if (sheets.length !== 1) throw new Error(`${fileName}: expected one sheet, found ${sheets.length}`)
  const data = sheets[0]!.data as Cell[][]
  const { at, columns } = findHeader(data, fileName)
  const rows: CdtfaRow[] = []
  data.forEach((cells, index) => {
    if (index <= at || cells.every((cell) => cellText(cell) === '')) return
    rows.push(parseRow(cells, columns, `${fileName} row ${index + 1}`))
  })
  if (rows.length === 0) throw new Error(`${fileName}: no rows below the header`)
  checkCounties(rows, fileName)
  return { fileName, editionDate, rows }
}

// ---------------------------------------------------------------------------------------------
// Compile


/** Readable code part: "City of Industry" → "INDUSTRY", "St. Helena" → "SAINT HELENA". */
const displayKey = placeMatchWords

const cityDistrictCode = (location: string) => `city:${displayKey(location)}`
const countyDistrictCode = (county: string) => `county:${displayKey(county)}`

export type CompileCdtfaInput = {
  workbook: CdtfaWorkbook
  /** the name the workbook was fetched under; its edition date must match the workbook's */
  fileName: string
  /** statewide base rate in 1e-5 units (CA 7.25% = 7250, from the rules table) */
  statewideRate: number
  geography: Geography
  /** downloaded files as recorded by the fetcher */
  files?: RawFile[]
}

type District = { ref: JurisdictionRef; name: string; rate: number }
/** The geography place a CDTFA city row names, looked for inside its CDTFA county. */
export function compileCdtfa(input: CompileCdtfaInput): FeedResult {
  const { workbook, fileName, statewideRate, geography } = input
  const { rows, editionDate } = workbook
  if (cdtfaEditionDate(fileName) !== editionDate) throw new Error(`${fileName}: workbook parsed from ${workbook.fileName}`)
  const table = new JurisdictionTable({ state: STATE, from: editionDate, to: null, source: fileName })
  const unplaced: UnplacedJurisdiction[] = []
  const notes: string[] = [
    `CA model: state level = statewide rate ${formatRate(statewideRate)} (includes the uniform 1.25% Bradley-Burns local share); ` +
      'each city and each county unincorporated area carries one district jurisdiction = its CDTFA combined rate minus the statewide rate',
  ]
  const addDistrict = (row: CdtfaRow, code: string, name: string, combined: number): District => {
    if (combined < statewideRate) throw new Error(`${fileName}: ${row.location} rate ${combined} is below the statewide ${statewideRate}`)
    const rate = combined - statewideRate
    return { ref: table.add('district', code, name, rate), name, rate }
  }
  const unplace = (district: District, reason: string, counties?: string[]) =>
    unplaced.push({ ...district.ref, name: district.name, rate: district.rate, reason, ...(counties ? { counties } : {}) })

  const stateRef = table.add('state', STATE, 'California', statewideRate)

  // Counties: every geography county is kept at rate 0; each CDTFA county adds its unincorporated district.
  const caCounties = [...geography.counties.values()].filter((county) => county.state === STATE)
  const fipsByCountyKey = new Map(caCounties.map((county) => [countyMatchKey(county.name), county.fips]))
  for (const county of caCounties) table.add('county', countyCode(county.fips), county.name, 0)
  const countyDistricts = new Map<string, District>()
  for (const row of rows.filter((r) => r.type === 'County')) {
    const combined = rows.find((r) => r.type === 'Unincorporated' && r.county === row.county)?.rateUnits ?? row.rateUnits!
    const district = addDistrict(row, countyDistrictCode(row.county), `${row.county} County unincorporated area district taxes`, combined)
    const fips = fipsByCountyKey.get(countyMatchKey(row.county))
    if (fips) countyDistricts.set(fips, district)
    else unplace(district, `no geography county named ${row.county} in CA`)
  }

  // Cities: a rate-0 city jurisdiction plus the city's district, keyed by the matched place GEOID.
  const cities = new Map<string, { location: string; district: District; counties: string[] }>()
  const byKey = placesByMatchKey([...geography.places.values()].filter((place) => place.state === STATE))
  for (const row of rows.filter((r) => r.type === 'City')) {
    const countyFips = fipsByCountyKey.get(countyMatchKey(row.county)) ?? null
    const place = placeNamedIn(byKey, row.location, countyFips)
    table.add('city', place ? placeCode(place.geoid) : displayKey(row.location), row.location, 0)
    const district = addDistrict(row, cityDistrictCode(row.location), `${row.location} district taxes`, row.rateUnits!)
    if (place) cities.set(place.geoid, { location: row.location, district, counties: place.counties.map((c) => c.fips) })
    else unplace(district, `no geography place named ${row.location} in ${row.county} County`, countyFips ? [countyFips] : undefined)
  }

  const { candidates, usedPlaces, usedCounties, noCounty, unlistedPlace } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef,
    countyTail: (fips) => {
      const district = countyDistricts.get(fips)
      return district ? [district.ref] : []
    },
    placeTail: (geoid) => {
      const city = cities.get(geoid)
      return city ? { name: city.location, refs: [{ level: 'city', code: placeCode(geoid) }, city.district.ref] } : null
    },
  })
  const placeUsed = (geoid: string) => [...usedPlaces].some((key) => key.startsWith(`${geoid}|`))

  const placeStacks: PlaceStack[] = []
  for (const [geoid, { location, district, counties }] of cities) {
    if (placeUsed(geoid)) continue
    unplace(district, `matched geography place ${geoid}, but no ZIP is bound to it`, counties)
    const cityRef: JurisdictionRef = { level: 'city', code: placeCode(geoid) }
    placeStacks.push(...placeStacksOf(geography, { geoid, name: location, counties }, (fips) => [stateRef, { level: 'county', code: countyCode(fips) }, cityRef, district.ref]))
  }
  notes.push(...placeStacksNotes(placeStacks))
  const withPlaces = withinZipCandidates(geography, candidates, placeStacks)
  for (const [fips, district] of countyDistricts) {
    if (!usedCounties.has(fips)) unplace(district, `no ZIP of county ${fips} lies outside an incorporated city in geography`, [fips])
  }

  notes.push(...noCountyNotes(STATE, noCounty))
  if (unlistedPlace) notes.push(`${unlistedPlace} ZIP-county parts are bound to a place CDTFA does not list: county unincorporated rate used`)
  notes.push('CDTFA publishes no row dates: every rate is dated from the edition date in the file name')

  return {
    jurisdictions: table.list(),
    candidates: withPlaces,
    placeStacks,
    unplaced,
    edition: editionDate,
    effectiveThrough: editionDate,
    effectiveDateBasis: 'edition_only',
    rowsRead: rows.length,
    rowsParsed: rows.length,
    files: input.files ?? [],
    notes,
  }
}
