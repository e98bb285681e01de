// The city an aggregator row's city rate belongs to. Avalara names each ZIP's tax region, which is
// the city where a city tax applies ("SEATTLE"), but is sometimes the special district that sets
// the region's extra rate ("CHICAGO METRO PIER AND EXPOSITION AUTHORITY DISTRICT", 60601) or the
// county ("DEKALB", 35968). Answering such a name as the city shows a district or a county as the
// city of a downtown address.
import type { Geography, GeoZip, GeoZipPlace } from '../../snapshot-contract/geography-model.ts'
import { placeMatchKey, placesByMatchKey } from '../../snapshot-contract/place-names.ts'
import { leadingKey, regionCountyFinder, regionWords } from './region-names.ts'

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
  const regionCounty = regionCountyFinder(geography, state)
  return (regionName, zip) => {
    const words = regionWords(regionName)
    if (placesByKey.has(leadingKey(words, words.length))) return regionName
    const bound = zip?.places ?? []
    const prefixes = words.map((_, i) => leadingKey(words, i + 1))
    const named = bound.find((place) => prefixes.includes(placeMatchKey(place.name)))
    if (named) return nameOf(named)
    return regionCounty(words) !== null && bound.length === 1 ? nameOf(bound[0]!) : regionName
  }
}
