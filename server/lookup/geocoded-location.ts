// Address mode with an upstream geocoder: its ZIP, county and incorporated place choose among the
// candidates of that ZIP. A candidate matches when its county is the geocoder's and its place is
// too: by GEOID, or by name where the source names places only (aggregator rows); a point outside
// every incorporated place matches a candidate without a place. Statutes model no places, so the
// county alone decides there. Nothing matching: the ZIP's highest-weight candidate, with a warning.
import type { Candidate } from '../../snapshot-contract/rate-index.ts'
import type { GeocodeMatch } from '../geocoder/geocode-match.ts'
import { placeMismatch, type Located } from './located.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'
import { factsOf, type SnapshotFacts, type SnapshotView } from './snapshot-facts.ts'
import { placeName, placeNameMatch, type PlaceModel } from './taxing-place.ts'
import type { ZipEntries } from './zip-entries.ts'
import { boundLocated, readZip4 } from './zip4-location.ts'
import { readAddressRanges } from './address-range-location.ts'

/** `ok: false`: the match cannot be used with this snapshot (another state, a ZIP not held); `reason` says why. */
export type GeocodedLocation = { ok: true; located: Located } | { ok: false; reason: string }

/**
 * What the caller sent: the street, the city (for place_input_mismatch), the ZIP and +4, and the date
 * asked about (when the geocoder's ZIP is the one sent, the +4 is read against the boundary file's
 * ZIP+4 ranges and the street against its address ranges).
 */
export type GeocodedInput = { street: string; city: string | null; zip5: string | null; zip4: string | null; isoDate: string }

/**
 * `strong`: the candidate's place is the geocoder's; `weak`: an aggregator row without a city,
 * which says nothing about incorporation; null: another county or place.
 */
function placeFit(candidate: Candidate, match: GeocodeMatch, model: PlaceModel, facts: SnapshotFacts): 'strong' | 'weak' | null {
  if (candidate.county?.fips !== match.countyFips) return null
  if (model === 'none') return 'strong'
  const place = candidate.place
  if (match.placeGeoid === null) return place === null ? 'strong' : null
  if (place === null) return model === 'name' ? 'weak' : null
  if (place.geoid) return place.geoid === match.placeGeoid ? 'strong' : null
  return match.placeName && placeNameMatch(facts.placeName(place.name), placeName(match.placeName)) ? 'strong' : null
}

function describePlace(match: GeocodeMatch): string {
  const place = match.placeGeoid ? `place ${match.placeGeoid} (${match.placeName})` : 'no incorporated place'
  return `county ${match.countyFips} (${match.countyName}), ${place}`
}

export function locateGeocoded(view: SnapshotView, zips: ZipEntries, state: string, match: GeocodeMatch, input: GeocodedInput): GeocodedLocation {
  if (match.state !== state) return { ok: false, reason: `its match "${match.matchedAddress}" lies in ${match.state}, not ${state}` }
  const entry = zips.of(match.zip5).find((e) => e.state === state)
  if (!entry) return { ok: false, reason: `its match "${match.matchedAddress}" has ZIP ${match.zip5}, which the ${state} data does not hold` }
  const zip4 = input.zip4 && input.zip5 === entry.zip ? readZip4(view, entry, input.zip4, input.isoDate) : null
  const point = { lat: match.lat, lng: match.lng }
  if (zip4?.kind === 'exact') return { ok: true, located: boundLocated(view, zip4, 'zip4', { city: input.city, zip4: input.zip4!, point }) }
  const address = input.isoDate && input.zip5 === entry.zip ? readAddressRanges(view, entry, input.street, input.isoDate) : null
  if (address?.kind === 'exact') {
    const located = boundLocated(view, address, 'address_range', { city: input.city, zip4: input.zip4, point })
    if (zip4) located.warnings.push(zip4.warning)
    return { ok: true, located }
  }
  const facts = factsOf(view)
  const model = facts.placeModel(state)
  const fits = entry.candidates.map((candidate) => placeFit(candidate, match, model, facts))
  const strong = fits.indexOf('strong')
  const index = strong >= 0 ? strong : fits.indexOf('weak')

  const warnings: WarningObject[] = []
  if (index < 0) {
    warnings.push(
      warning(
        'geocoder_place_unmatched',
        `The geocoder placed "${match.matchedAddress}" in ${describePlace(match)}; no candidate of ZIP ${entry.zip} has them, so its highest-weight one was answered.`,
        { county_fips: match.countyFips, place_geoid: match.placeGeoid },
      ),
    )
  }
  const choice = index < 0 ? 0 : index
  const mismatch = placeMismatch(input.city, entry.candidates[choice]!, model)
  if (mismatch) warnings.push(mismatch)
  if (zip4) warnings.push(zip4.warning)
  if (address) warnings.push(address.warning)
  return {
    ok: true,
    located: {
      state,
      entry,
      choice,
      chosenBy: index < 0 ? 'weight' : 'geocoder',
      resolvedVia: 'census_geocoder',
      confidenceCap: index < 0 || zip4?.ambiguous || address ? 'medium' : null,
      warnings,
      zip4: input.zip4,
      point,
    },
  }
}
