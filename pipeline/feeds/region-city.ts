// The city an aggregator row's city rate belongs to. Avalara names each ZIP's tax region, which is
// the city where a city tax applies ("SEATTLE"), but is sometimes the special district that sets
// the region's extra rate ("CHICAGO METRO PIER AND EXPOSITION AUTHORITY DISTRICT", 60601) or the
// county ("DEKALB", 35968). Answering such a name as the city shows a district or a county as the
// city of a downtown address.
import type { Geography, GeoZip, GeoZipPlace } from '../geography/model.ts'
import { normalizePlaceName, placeMatchKey, placesByMatchKey } from '../geography/place-names.ts'

const COUNTY_WORDS = new Set(['COUNTY', 'PARISH', 'BOROUGH'])
const COUNTY_SUFFIX = / (COUNTY|PARISH|BOROUGH|CENSUS AREA|CITY AND BOROUGH|MUNICIPALITY)$/

/** The counties of a state by the match key of their name without its suffix ("DEKALB", "SAINTLOUIS"): FIPS. */
export function countiesByMatchKey(geography: Geography, state: string): Map<string, string> {
  const byKey = new Map<string, string>()
  for (const county of geography.counties.values()) {
    if (county.state === state) byKey.set(placeMatchKey(normalizePlaceName(county.name).replace(COUNTY_SUFFIX, '')), county.fips)
  }
  return byKey
}

/**
 * Names the city of a row with a city rate:
 * - the region name, when it is a place of the state ("SEATTLE", "NEW YORK CITY");
 * - else the place the ZIP is bound to that the region name begins with
 *   ("SAN JOSE CONVENTION CENTER FACILITY DISTRICT ZONE 2" → SAN JOSE), called as other rows of
 *   the file call it (Staten Island's "RICHMOND" → NEW YORK CITY, not the Census "New York");
 * - else, when the region is named for a county ("DEKALB", "MARICOPA COUNTY STADIUM DISTRICT"),
 *   the ZIP's only bound place (FORT PAYNE, PHOENIX);
 * - else the region name as published: an abbreviated city ("COUNTRY CL HILL") or a New England
 *   town is the taxing city itself, and nothing better is known.
 */
export function regionCityNamer(geography: Geography, state: string, regionNames: Iterable<string>): (regionName: string, zip: GeoZip | undefined) => string {
  const statePlaces = [...geography.places.values()].filter((place) => place.state === state)
  const placesByKey = placesByMatchKey(statePlaces)
  // A region named with the legal suffix names that place too: "CREOLA VILLAGE" for "Creola
  // village" (placeMatchKeys already adds it for cities: "NEW YORK CITY").
  for (const place of statePlaces) {
    const key = placeMatchKey(place.fullName)
    if (!placesByKey.get(key)?.includes(place)) placesByKey.set(key, [...(placesByKey.get(key) ?? []), place])
  }
  // A place is called what the file calls it elsewhere ("NEW YORK CITY", not the Census "New York").
  const fileName = new Map<string, string>()
  for (const name of regionNames) {
    for (const { geoid } of placesByKey.get(placeMatchKey(name)) ?? []) if (!fileName.has(geoid)) fileName.set(geoid, name)
  }
  const nameOf = (place: GeoZipPlace) => fileName.get(place.geoid) ?? place.name.toUpperCase()
  const countyKeys = countiesByMatchKey(geography, state)
  return (regionName, zip) => {
    const words = normalizePlaceName(regionName).split(' ')
    if (placesByKey.has(words.join(''))) return regionName
    const bound = zip?.places ?? []
    const prefixes = words.map((_, i) => words.slice(0, i + 1).join(''))
    const named = bound.find((place) => prefixes.includes(placeMatchKey(place.name)))
    if (named) return nameOf(named)
    const countyNamed = prefixes.some((prefix, i) => countyKeys.has(prefix) && (i === words.length - 1 || COUNTY_WORDS.has(words[i + 1]!)))
    return countyNamed && bound.length === 1 ? nameOf(bound[0]!) : regionName
  }
}
