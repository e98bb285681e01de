// Census 2020 reference tables (publisher-evidence.md C.1, C.2): the ZCTA→county and ZCTA→place
// relationship files and the place-by-county code list. All three are pipe-delimited text with a
// header row (the relationship files behind a UTF-8 BOM); columns are found by name, so a reordered
// file still reads and a renamed or dropped column is named in the error. A row that does not read is
// set aside, counted and named with its line (set-aside-share.ts); the file fails only past the share.
import Papa from 'papaparse'
import type { GeoPlace } from '../../snapshot-contract/geography-model.ts'
import { isCdpSuffix, parsePlaceName } from '../../snapshot-contract/place-names.ts'
import { htmlTitle } from '../fetch/body-kind.ts'
import { RowsSetAside } from '../fetch/set-aside-share.ts'
import { decodeText } from '../fetch/text-decoding.ts'

export const ZCTA_COUNTY_FILE = 'tab20_zcta520_county20_natl.txt'
export const ZCTA_PLACE_FILE = 'tab20_zcta520_place20_natl.txt'
export const PLACE_BY_COUNTY_FILE = 'national_place_by_county2020.txt'

/** One ZCTA's part in a county or place: AREALAND_PART over the ZCTA's land (m²). */
export type ZctaPart = { geoid: string; share: number }

export type ZctaPlaceTable = {
  /** ZCTA → the places its land lies in, largest share first */
  parts: Map<string, ZctaPart[]>
  /** place GEOID → AREALAND_PLACE_20 (m²) */
  placeLand: Map<string, number>
  /** ZCTAs a row set aside names: their places are not known from this file */
  unread: Set<string>
  setAside: RowsSetAside
}

export type CensusPlace = Omit<GeoPlace, 'lat' | 'lng' | 'population'>

export type PlaceByCountyTable = {
  places: Map<string, CensusPlace>
  /** 5-digit county FIPS → county name without " County" ("Autauga", "Acadia Parish") */
  countyNames: Map<string, string>
  setAside: RowsSetAside
}

type Table = { rows: string[][]; column: (name: string) => number }

/**
 * The rows of a pipe table whose header holds every `required` column; `label` names the file in
 * errors. `preview` > 0 reads only that many lines (the header included).
 */
function readPipeTable(bytes: Uint8Array, label: string, required: readonly string[], preview = 0): Table {
  // UTF-8 as published (the relationship files behind a BOM); Windows-1252 when not valid UTF-8 ("Cañon City").
  const title = htmlTitle(Buffer.from(bytes.subarray(0, 65_536)))
  if (title !== null) throw new Error(`${label} is an HTML page${title ? ` ("${title}")` : ''}, not the Census pipe-delimited file`)
  const [header, ...rows] = Papa.parse<string[]>(decodeText(bytes, label), { delimiter: '|', skipEmptyLines: 'greedy', preview }).data
  if (!header) throw new Error(`${label} is empty`)
  const names = header.map((name) => name.trim())
  const missing = required.filter((name) => !names.includes(name))
  if (missing.length) throw new Error(`${label} lacks the column(s) ${missing.join(', ')} (header: ${names.join('|').slice(0, 200)})`)
  if (rows.length === 0) throw new Error(`${label} has a header and no rows`)
  return { rows, column: (name) => names.indexOf(name) }
}

/** A land area in m², or why the cell is none. */
function landArea(text: string | undefined, column: string): number | string {
  const value = Number(text)
  return text === undefined || text.trim() === '' || !Number.isFinite(value) || value < 0 ? `bad ${column} ${JSON.stringify(text)}` : value
}

/** One row of a ZCTA relationship file: a ZCTA's land in one county or place. */
type ZctaRow = { zcta: string; zctaLand: number; geoid: string; part: number }
type ZctaLand = { land: number; parts: Map<string, number> }

/**
 * The rows of a ZCTA relationship file with both a ZCTA and a `GEOID_<target>_20`, and for places each
 * place's land (AREALAND_PLACE_20, read from its rows with or without a ZCTA). Rows with an empty
 * target side (a ZCTA's land in no place) are dropped. A row that does not read (a code of another
 * shape, a land area that is no number) is set aside with its line, and its ZCTA with it (`unread`):
 * part of a ZCTA's rows would give it wrong shares, so it is left to the reading of ZIPs without a
 * ZCTA. The file fails past the share a file may set aside.
 */
function readZctaRows(table: Table, label: string, target: 'COUNTY' | 'PLACE', digits: number) {
  const targetId = `GEOID_${target}_20`
  const [zctaAt, zctaLandAt, targetAt, partAt, placeLandAt] = ['GEOID_ZCTA5_20', 'AREALAND_ZCTA5_20', targetId, 'AREALAND_PART', 'AREALAND_PLACE_20'].map(table.column) as [number, number, number, number, number]
  const geoidPattern = new RegExp(`^\\d{${digits}}$`)
  const setAside = new RowsSetAside(label)
  const unread = new Set<string>()
  const rows: ZctaRow[] = []
  const placeLand = new Map<string, number>()
  table.rows.forEach((cells, i) => {
    const zcta = cells[zctaAt]?.trim() ?? ''
    const geoid = cells[targetAt]?.trim() ?? ''
    if (geoid === '') return
    const ownLand = target === 'PLACE' ? landArea(cells[placeLandAt], 'AREALAND_PLACE_20') : 0
    const [zctaLand, part] = zcta === '' ? [0, 0] : [landArea(cells[zctaLandAt], 'AREALAND_ZCTA5_20'), landArea(cells[partAt], 'AREALAND_PART')]
    const shape = zcta !== '' && (!/^\d{5}$/.test(zcta) || !geoidPattern.test(geoid)) ? `bad ZCTA ${JSON.stringify(zcta)} or ${targetId} ${JSON.stringify(geoid)}` : undefined
    const reason = shape ?? [ownLand, zctaLand, part].find((value) => typeof value === 'string')
    if (reason !== undefined) {
      setAside.add(`line ${i + 2}`, reason)
      if (zcta !== '') unread.add(zcta)
      return
    }
    if (target === 'PLACE' && !placeLand.has(geoid)) placeLand.set(geoid, ownLand as number)
    // a row with an empty ZCTA side is county or place land outside every ZCTA
    if (zcta !== '') rows.push({ zcta, zctaLand: zctaLand as number, geoid, part: part as number })
  })
  setAside.assertWithinShare(table.rows.length)
  return { zctas: zctaParts(rows.filter((row) => !unread.has(row.zcta)), label, target), placeLand, setAside, unread }
}

/** Per ZCTA: its land (AREALAND_ZCTA5_20) and its land in each part of the other geography. */
function zctaParts(rows: readonly ZctaRow[], label: string, target: 'COUNTY' | 'PLACE'): Map<string, ZctaLand> {
  const zctas = new Map<string, ZctaLand>()
  for (const { zcta, zctaLand, geoid, part } of rows) {
    const entry = zctas.get(zcta) ?? { land: zctaLand, parts: new Map<string, number>() }
    entry.parts.set(geoid, (entry.parts.get(geoid) ?? 0) + part)
    zctas.set(zcta, entry)
  }
  if (zctas.size === 0) throw new Error(`${label} has no row with both a ZCTA and a ${target.toLowerCase()}`)
  return zctas
}

const ZCTA_COLUMNS = ['GEOID_ZCTA5_20', 'AREALAND_ZCTA5_20', 'AREALAND_PART']
const PLACE_BY_COUNTY_COLUMNS = ['STATE', 'STATEFP', 'COUNTYFP', 'COUNTYNAME', 'PLACEFP', 'PLACENAME', 'TYPE', 'CLASSFP'] as const

/** The columns each table's reader needs. */
const REQUIRED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  [ZCTA_COUNTY_FILE]: [...ZCTA_COLUMNS, 'GEOID_COUNTY_20', 'NAMELSAD_COUNTY_20'],
  [ZCTA_PLACE_FILE]: [...ZCTA_COLUMNS, 'GEOID_PLACE_20', 'AREALAND_PLACE_20'],
  [PLACE_BY_COUNTY_FILE]: PLACE_BY_COUNTY_COLUMNS,
}

export const isCensusTable = (fileName: string): boolean => fileName in REQUIRED_COLUMNS

/**
 * Throws what the reader of `fileName` would on its structure (an HTML page, no header, a required
 * column missing, no rows), reading the header and first row only: a download is checked with it
 * before it is kept in use.
 */
export function assertCensusTableShape(bytes: Uint8Array, fileName: string, label = fileName): void {
  readPipeTable(bytes, label, REQUIRED_COLUMNS[fileName]!, 2)
}

/** What becomes of the rows each Census table's reader sets aside. */
const SET_ASIDE_EFFECT: Readonly<Record<string, string>> = {
  [ZCTA_COUNTY_FILE]: 'their ZCTAs are placed as ZIPs without a ZCTA are, by the USPS list and its point',
  [ZCTA_PLACE_FILE]: 'their ZCTAs are bound to places by their point, as without this file',
  [PLACE_BY_COUNTY_FILE]: 'a place named only by them is not in the geography, and a rate file\'s city of its name is unplaced',
}

/** The refresh log's line for a Census table's rows set aside, naming the first few and what becomes of them; none when none was. */
export function censusSetAsideNotes(fileName: string, setAside: RowsSetAside): string[] {
  return setAside.count ? [`${setAside.fileName}: ${setAside.count} row(s) set aside (${setAside.named()}): ${SET_ASIDE_EFFECT[fileName]}`] : []
}

// Shares of `whole`, largest first; a ZCTA of water alone (no land) splits equally rather than dividing by zero.
function sharesOf(parts: Map<string, number>, whole: number): ZctaPart[] {
  return [...parts]
    .map(([geoid, area]) => ({ geoid, share: whole > 0 ? Math.min(1, area / whole) : 1 / parts.size }))
    .sort((a, b) => b.share - a.share || a.geoid.localeCompare(b.geoid))
}

/**
 * `tab20_zcta520_county20_natl.txt`: ZCTA → counties with their shares of the ZCTA's land (summing
 * to 1: every bit of a ZCTA lies in some county), and the county names.
 */
export function parseZctaCounty(bytes: Uint8Array, label = ZCTA_COUNTY_FILE): { parts: Map<string, ZctaPart[]>; countyNames: Map<string, string>; setAside: RowsSetAside } {
  const table = readPipeTable(bytes, label, REQUIRED_COLUMNS[ZCTA_COUNTY_FILE]!)
  const { zctas, setAside } = readZctaRows(table, label, 'COUNTY', 5)
  const parts = new Map([...zctas].map(([zcta, { parts }]) => [zcta, sharesOf(parts, [...parts.values()].reduce((sum, area) => sum + area, 0))]))
  const [countyAt, nameAt] = ['GEOID_COUNTY_20', 'NAMELSAD_COUNTY_20'].map(table.column) as [number, number]
  const countyNames = new Map<string, string>()
  for (const cells of table.rows) {
    const fips = cells[countyAt]?.trim() ?? ''
    const name = cells[nameAt]?.trim() ?? ''
    if (fips && name) countyNames.set(fips, countyName(name))
  }
  return { parts, countyNames, setAside }
}

/**
 * `tab20_zcta520_place20_natl.txt`: ZCTA → places with their shares of the ZCTA's whole land
 * (AREALAND_ZCTA5_20). Places do not overlap, so a ZCTA's shares sum to at most 1; the rest is land
 * in no place. Also each place's land (AREALAND_PLACE_20).
 */
export function parseZctaPlace(bytes: Uint8Array, label = ZCTA_PLACE_FILE): ZctaPlaceTable {
  const table = readPipeTable(bytes, label, REQUIRED_COLUMNS[ZCTA_PLACE_FILE]!)
  const { zctas, placeLand, setAside, unread } = readZctaRows(table, label, 'PLACE', 7)
  return { parts: new Map([...zctas].map(([zcta, { land, parts }]) => [zcta, sharesOf(parts, land)])), placeLand, unread, setAside }
}

const INCORPORATED_TYPE = /^INCORPORATED PLACE$/i
const CDP_TYPE = /^CENSUS DESIGNATED PLACE$/i

/**
 * `national_place_by_county2020.txt`: every place with the counties it lies in (one row per place ×
 * county). TYPE says whether it is incorporated (it levies tax) or a CDP (it does not); a row whose
 * TYPE is neither falls back on CLASSFP (C* incorporated, U* census designated).
 */
export function parsePlaceByCounty(bytes: Uint8Array, label = PLACE_BY_COUNTY_FILE): PlaceByCountyTable {
  const columns = PLACE_BY_COUNTY_COLUMNS
  const table = readPipeTable(bytes, label, columns)
  const at = Object.fromEntries(columns.map((name) => [name, table.column(name)])) as Record<(typeof columns)[number], number>
  const places = new Map<string, CensusPlace>()
  const countyNames = new Map<string, string>()
  const setAside = new RowsSetAside(label)
  table.rows.forEach((cells, i) => {
    const cell = (name: (typeof columns)[number]) => cells[at[name]]?.trim() ?? ''
    const [stateFips, countyFp, placeFp, state] = [cell('STATEFP'), cell('COUNTYFP'), cell('PLACEFP'), cell('STATE')]
    if (!/^\d{2}$/.test(stateFips) || !/^\d{3}$/.test(countyFp) || !/^\d{5}$/.test(placeFp) || !/^[A-Z]{2}$/.test(state)) {
      return setAside.add(`line ${i + 2}`, `bad STATE/STATEFP/COUNTYFP/PLACEFP ${JSON.stringify([state, stateFips, countyFp, placeFp])}`)
    }
    const county = stateFips + countyFp
    if (cell('COUNTYNAME')) countyNames.set(county, countyName(cell('COUNTYNAME')))
    const geoid = stateFips + placeFp
    let place = places.get(geoid)
    if (!place) {
      const fullName = cell('PLACENAME')
      const { name, suffix } = parsePlaceName(fullName)
      place = { geoid, state, name, fullName, kind: placeKind(cell('TYPE'), cell('CLASSFP'), suffix), counties: [] }
      places.set(geoid, place)
    }
    if (!place.counties.some((c) => c.fips === county)) place.counties.push({ fips: county, share: 0 })
  })
  setAside.assertWithinShare(table.rows.length)
  // The file gives no split of a place over its counties: equal shares, in file order.
  for (const place of places.values()) for (const c of place.counties) c.share = 1 / place.counties.length
  return { places, countyNames, setAside }
}

function placeKind(type: string, classFp: string, suffix: string | null): GeoPlace['kind'] {
  if (INCORPORATED_TYPE.test(type)) return 'incorporated'
  if (CDP_TYPE.test(type)) return 'cdp'
  if (/^C/i.test(classFp)) return 'incorporated'
  if (/^U/i.test(classFp)) return 'cdp'
  return isCdpSuffix(suffix) ? 'cdp' : 'incorporated'
}

/** "Autauga County" → "Autauga", as Geocorr writes county names; "Acadia Parish" stays. */
function countyName(nameLsad: string): string {
  return nameLsad.replace(/ County$/, '')
}
