// Reading an aggregator's tax region names ("MARICOPA COUNTY STADIUM DISTRICT", "SANTA CLARA CO
// LOCAL TAX SL", "SACRAMENTO TMD ZONE 1"): their words in place-name form, and the county a name is
// named for. Shared by the aggregator city namer (region-city.ts) and the placing of ZIPs the
// geography lacks (unlisted-zips.ts).
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import { normalizePlaceName, placeMatchKey } from '../../snapshot-contract/place-names.ts'

// A region name going on with one of these after a county's name is named for the county.
const COUNTY_WORDS = new Set(['CO', 'COUNTY', 'PARISH', 'BOROUGH'])
const COUNTY_SUFFIX = / (COUNTY|PARISH|BOROUGH|CENSUS AREA|CITY AND BOROUGH|MUNICIPALITY)$/

export const regionWords = (regionName: string): string[] => normalizePlaceName(regionName).split(' ')

/** The match key of a region name's first `count` words. */
export const leadingKey = (words: string[], count: number): string => placeMatchKey(words.slice(0, count).join(' '))

/** True when a name's first `count` words end it or are followed by a county word ("SANTA CLARA" in "SANTA CLARA CO …"). */
export const countyWordFollows = (words: string[], count: number): boolean => count < words.length && COUNTY_WORDS.has(words[count]!)

/** Region-name reading for one state: the FIPS of the county a region is named for, or null. */
export function regionCountyFinder(geography: Geography, state: string): (words: string[]) => string | null {
  const byKey = new Map<string, string>()
  for (const county of geography.counties.values()) {
    if (county.state === state) byKey.set(placeMatchKey(normalizePlaceName(county.name).replace(COUNTY_SUFFIX, '')), county.fips)
  }
  return (words) => {
    for (let count = words.length; count > 0; count--) {
      const fips = byKey.get(leadingKey(words, count))
      if (fips && (count === words.length || countyWordFollows(words, count))) return fips
    }
    return null
  }
}
