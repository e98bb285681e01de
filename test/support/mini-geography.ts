// A small real Geography for feed tests, read in place from shared/geo (HUD ZIP→county 2023Q1 and
// Geocorr 2022 county→place) for just the given states. No centroids, no shapes, no ZCTA flags.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import Papa from 'papaparse'
import type { GeoCounty, GeoPlace, GeoZip, Geography } from '../../snapshot-contract/geography-model.ts'
import { sharedPath } from './shared.ts'

const HUD_FILE = sharedPath('geo/hud/ZIP_COUNTY_032023.csv')
const GEOCORR_FILE = sharedPath('geo/geocorr/geocorr2022_2507107313.csv')
const UNASSIGNED_COUNTY = '99999'
const NOT_A_PLACE = '99999'
const LEGAL_SUFFIX = / (city|town|village|borough|CDP|municipality|(?:unified|consolidated|metro|metropolitan) government(?: \(balance\))?)$/

/** USPS writes SAINT PAUL and FORT MYERS where Census writes St. Paul and Fort Myers. */
const cityKey = (name: string) =>
  name
    .toUpperCase()
    .replace(/\./g, '')
    .replace(/^ST /, 'SAINT ')
    .replace(/^FT /, 'FORT ')
    .replace(/^MT /, 'MOUNT ')

type HudRow = { ZIP: string; COUNTY: string; USPS_ZIP_PREF_CITY: string; USPS_ZIP_PREF_STATE: string; RES_RATIO: string; TOT_RATIO: string }
type GeocorrRow = { county: string; state: string; place: string; stab: string; CountyName: string; PlaceName: string; pop20: string; afact2: string }

async function readCsv<T>(file: string, inputs: Record<string, string>): Promise<T[]> {
  const bytes = await readFile(file)
  inputs[file.slice(file.lastIndexOf('/') + 1)] = createHash('sha256').update(bytes).digest('hex')
  return Papa.parse<T>(bytes.toString('utf8'), { header: true, skipEmptyLines: true }).data
}

export async function loadMiniGeography(states: string[]): Promise<Geography> {
  const wanted = new Set(states)
  const inputs: Record<string, string> = {}
  // Geocorr's second line repeats the header as labels.
  const allGeocorr = (await readCsv<GeocorrRow>(GEOCORR_FILE, inputs)).slice(1)
  const stateByFips = new Map(allGeocorr.map((row) => [row.state, row.stab]))
  const geocorr = allGeocorr.filter((row) => wanted.has(row.stab))
  const hud = (await readCsv<HudRow>(HUD_FILE, inputs)).filter((row) => wanted.has(row.USPS_ZIP_PREF_STATE))

  const counties = new Map<string, GeoCounty>()
  const places = new Map<string, GeoPlace>()
  for (const row of geocorr) {
    counties.set(row.county, { fips: row.county, state: row.stab, name: row.CountyName.replace(/ [A-Z]{2}$/, '') })
    if (row.place === NOT_A_PLACE) continue
    const geoid = row.state + row.place
    const fullName = row.PlaceName.replace(/, [A-Z]{2}$/, '')
    const place = places.get(geoid) ?? {
      geoid,
      state: row.stab,
      name: fullName.replace(LEGAL_SUFFIX, ''),
      fullName,
      kind: fullName.endsWith(' CDP') ? 'cdp' : 'incorporated',
      counties: [],
      population: 0,
      lat: null,
      lng: null,
    }
    place.counties.push({ fips: row.county, share: Number(row.afact2) })
    place.population += Number(row.pop20)
    places.set(geoid, place)
  }

  // Incorporated places by (county, upper-case name), for matching the USPS preferred city.
  const placeByCountyAndName = new Map<string, GeoPlace>()
  for (const place of places.values()) {
    if (place.kind !== 'incorporated') continue
    for (const county of place.counties) placeByCountyAndName.set(`${county.fips} ${cityKey(place.name)}`, place)
  }

  const zips = new Map<string, GeoZip>()
  for (const row of hud) {
    const zip = zips.get(row.ZIP) ?? {
      zip: row.ZIP,
      state: row.USPS_ZIP_PREF_STATE,
      city: row.USPS_ZIP_PREF_CITY,
      counties: [],
      places: [],
      lat: null,
      lng: null,
      centroidSource: null,
      zcta: false,
      states: [],
    }
    if (row.COUNTY !== UNASSIGNED_COUNTY) {
      zip.counties.push({ fips: row.COUNTY, weight: Number(row.TOT_RATIO), residentialWeight: Number(row.RES_RATIO) })
    }
    zips.set(row.ZIP, zip)
  }

  const straddlers: Geography['straddlers'] = []
  for (const zip of zips.values()) {
    zip.counties.sort((a, b) => b.weight - a.weight)
    zip.states = [...new Set(zip.counties.map((county) => stateByFips.get(county.fips.slice(0, 2)) ?? county.fips.slice(0, 2)))]
    for (const county of zip.counties) {
      const place = placeByCountyAndName.get(`${county.fips} ${cityKey(zip.city)}`)
      if (place) {
        zip.places.push({ geoid: place.geoid, name: place.name, countyFips: county.fips, method: 'preferred_city' })
        break
      }
    }
    if (zip.states.length > 1 || zip.states.some((state) => state !== zip.state)) {
      straddlers.push({ zip: zip.zip, uspsState: zip.state, states: zip.states, reason: 'HUD counties outside the USPS state' })
    }
  }

  return { zips, counties, places, straddlers, countyShapes: [], placeShapes: [], inputs }
}
