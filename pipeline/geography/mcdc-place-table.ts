// MCDC Geocorr 2022 county × place table: the place gazetteer (names, counties, 2020 population)
// and the county names.
import Papa from 'papaparse'
import type { GeoPlace } from '../../snapshot-contract/geography-model.ts'
import { isCdpSuffix, parsePlaceName } from '../../snapshot-contract/place-names.ts'

/** Geocorr's place code for the part of a county outside every place. */
const OUTSIDE_ANY_PLACE = '99999'

export type GeocorrPlace = Omit<GeoPlace, 'lat' | 'lng'> & {
  /** false when Geocorr publishes only the GEOID as the name (a few places dissolved after 2020) */
  named: boolean
}

export type GeocorrTable = {
  places: Map<string, GeocorrPlace>
  /** 5-digit county FIPS → county name without the state ("Autauga") */
  countyNames: Map<string, string>
  /** 2-digit state FIPS → USPS state code */
  stateCodes: Map<string, string>
}

/** Geocorr CSVs are Latin-1 ("Cañon City"). */
export function decodeGeocorr(bytes: Uint8Array): string {
  return new TextDecoder('latin1').decode(bytes)
}

/** True when the CSV is a county→place table (Geocorr also exports county→cousub and others). */
export function isGeocorrPlaceTable(csvText: string): boolean {
  const header = csvText.slice(0, csvText.indexOf('\n')).replace(/"/g, '').trim().split(',')
  return ['county', 'state', 'place', 'stab', 'PlaceName', 'afact2'].every((c) => header.includes(c))
}

type GeocorrRow = Record<'county' | 'state' | 'place' | 'stab' | 'CountyName' | 'PlaceName' | 'pop20' | 'afact2', string>

export function parseGeocorrPlaces(csvText: string): GeocorrTable {
  const parsed = Papa.parse<GeocorrRow>(csvText, { header: true, skipEmptyLines: true })
  // The second line holds human-readable column labels.
  const rows = parsed.data.slice(1)
  const places = new Map<string, GeocorrPlace>()
  const countyNames = new Map<string, string>()
  const stateCodes = new Map<string, string>()

  for (const row of rows) {
    const county = row.county.trim()
    const stateFips = row.state.trim()
    const state = row.stab.trim()
    if (!/^\d{5}$/.test(county) || !/^\d{2}$/.test(stateFips)) throw new Error(`bad Geocorr row: ${JSON.stringify(row)}`)
    stateCodes.set(stateFips, state)
    countyNames.set(county, row.CountyName.trim().replace(new RegExp(` ${state}$`), ''))

    const placeCode = row.place.trim()
    if (placeCode === OUTSIDE_ANY_PLACE) continue
    const geoid = stateFips + placeCode
    const population = Number(row.pop20)
    const share = Number(row.afact2)
    let place = places.get(geoid)
    if (!place) {
      const fullName = row.PlaceName.trim().replace(new RegExp(`, ${state}$`), '')
      const named = fullName !== geoid
      const { name, suffix } = parsePlaceName(fullName)
      place = { geoid, state, name, fullName, kind: isCdpSuffix(suffix) ? 'cdp' : 'incorporated', counties: [], population: 0, named }
      places.set(geoid, place)
    }
    place.counties.push({ fips: county, share })
    place.population += population
  }
  for (const place of places.values()) place.counties.sort((a, b) => b.share - a.share || a.fips.localeCompare(b.fips))
  return { places, countyNames, stateCodes }
}
