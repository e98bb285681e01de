// ZIPs an official state's rates could not be placed on because the ZIP geography (the HUD–USPS
// crosswalk) lacks them: PO-box and unique ZIPs such as Los Angeles 90080 or the State of
// California's 942xx. An aggregator edition lists them under a tax region name ("LOS ANGELES",
// "SACRAMENTO TMD ZONE 1", "KERN"); only the place is taken from that name. The rates are the
// official stack of another ZIP of the same county and place, and such ZIPs answer at low
// confidence (the server knows them by their missing geography).
import type { Geography, GeoPlace } from '../../snapshot-contract/geography-model.ts'
import { placesByMatchKey } from '../../snapshot-contract/place-names.ts'
import type { FeedResult, ZipCandidate } from '../../snapshot-contract/model.ts'
import type { AvalaraRow } from './aggregator-drop.ts'
import { countyWordFollows, leadingKey, regionCountyFinder, regionWords } from './region-names.ts'

type RegionPlace = { kind: 'place'; place: GeoPlace } | { kind: 'county'; fips: string }

/** What a region name names: its longest leading words that are one incorporated place, else a county. */
function regionNamer(geography: Geography, state: string): (regionName: string) => RegionPlace | null {
  const placesByKey = placesByMatchKey([...geography.places.values()].filter((p) => p.state === state && p.kind === 'incorporated'))
  const regionCounty = regionCountyFinder(geography, state)
  return (regionName) => {
    const words = regionWords(regionName)
    for (let count = words.length; count > 0; count--) {
      const named = placesByKey.get(leadingKey(words, count)) ?? []
      if (named.length > 1) return null
      if (named.length === 1 && !countyWordFollows(words, count)) return { kind: 'place', place: named[0]! }
    }
    const fips = regionCounty(words)
    return fips ? { kind: 'county', fips } : null
  }
}

/**
 * `result` with a candidate for every row of `rows` (an aggregator edition of the same state) whose
 * ZIP neither the geography nor the result holds, when its region name names a place or county
 * some other ZIP of the result already carries; a note says how many were placed and how many not.
 */
export function placeUnlistedZips(result: FeedResult, input: { state: string; geography: Geography; rows: AvalaraRow[]; edition: string }): FeedResult {
  const held = new Set(result.candidates.map((c) => c.zip))
  const unlisted = input.rows.filter((row) => !input.geography.zips.has(row.zip) && !held.has(row.zip))
  if (unlisted.length === 0) return result

  // The official stack of each county and place (the first candidate carrying it: feeds list candidates in ZIP order).
  const byCombo = new Map<string, ZipCandidate>()
  for (const candidate of result.candidates) {
    const key = `${candidate.countyFips}|${candidate.placeFips ?? ''}`
    if (!byCombo.has(key)) byCombo.set(key, candidate)
  }
  const name = regionNamer(input.geography, input.state)
  const added: ZipCandidate[] = []
  const left: string[] = []
  for (const row of unlisted) {
    const named = name(row.taxRegionName)
    const model =
      named?.kind === 'place'
        ? named.place.counties.map((c) => byCombo.get(`${c.fips}|${named.place.geoid}`)).find(Boolean)
        : named
          ? byCombo.get(`${named.fips}|`)
          : undefined
    if (!model) {
      left.push(`${row.zip} (${row.taxRegionName})`)
      continue
    }
    added.push({ ...model, zip: row.zip, weight: 1 })
  }
  const zips = (n: number) => `${n} ZIP${n === 1 ? '' : 's'}`
  const notes = [
    `${zips(added.length)} the ZIP geography lacks (PO-box and unique ZIPs) placed by their tax region name in Avalara edition ${input.edition}, with the official rates of their place; they answer at low confidence`,
    ...(left.length ? [`${zips(left.length)} it lacks left unplaced (no place or county of the state by that name carries rates): ${left.slice(0, 10).join(', ')}${left.length > 10 ? ', …' : ''}`] : []),
  ]
  return { ...result, candidates: [...result.candidates, ...added], notes: [...result.notes, ...notes] }
}
