// Where a lookup landed: one candidate of one ZIP entry of one state, how it was found, and what the
// answer must say about it. Produced by the ZIP, place and point locators; consumed by the answer.
import type { Candidate, ZipEntry } from '../../snapshot-contract/rate-index.ts'
import type { ChosenBy } from './candidate-choice.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'
import { placeName, placeNameMatch, type PlaceModel } from './taxing-place.ts'

/**
 * meta.resolved_via values:
 *   static_statewide  the state answers one statutory rate everywhere; the input only had to name the state
 *   zip5              the ZIP (zip parameter) resolved the jurisdiction
 *   address_locator   the address's ZIP, with its city choosing among the ZIP's candidates
 *   place_gazetteer   a place name (location, or an address without a ZIP) through the place gazetteer
 *   postal_city       a name that is no place of the state but the USPS name of some of its ZIPs
 *                     ("Brooklyn, NY"): the taxing place most of those ZIPs resolve to
 *   coordinates       lat/lng through county and place polygons, then the ZIPs of that county and place
 *   census_geocoder   an address with a street through the upstream Census geocoder (TAXATLAS_GEOCODER_URL):
 *                     its ZIP, county and place chose the candidate
 *   zip4              the ZIP+4 sent (with a ZIP or an address) lies in one binding of the state's SST
 *                     boundary file: that binding answered (zip4-location.ts)
 *   address_range     the address's street and house number lie in address ranges (A records) of the
 *                     state's SST boundary file of one binding: that binding answered (address-range-location.ts)
 */
export const RESOLVED_VIA = ['static_statewide', 'zip5', 'address_locator', 'place_gazetteer', 'postal_city', 'coordinates', 'census_geocoder', 'zip4', 'address_range'] as const
export type ResolvedVia = (typeof RESOLVED_VIA)[number]

export type ConfidenceCap = 'low' | 'medium' | null

/** The lower of two caps (null claims nothing). */
export const lowerCap = (a: ConfidenceCap, b: ConfidenceCap): ConfidenceCap => (a === 'low' || b === 'low' ? 'low' : (a ?? b))

export type Located = {
  state: string
  entry: ZipEntry
  /** index of the answered candidate in entry.candidates */
  choice: number
  chosenBy: ChosenBy
  resolvedVia: Exclude<ResolvedVia, 'static_statewide'>
  /** the most the answer can claim: `low` for a nearest-centroid or county-only answer, `medium` for a guess among namesakes */
  confidenceCap: ConfidenceCap
  warnings: WarningObject[]
  /** the +4 sent with the ZIP */
  zip4: string | null
  /** the answer is the binding the state's boundary file gives the ZIP+4 or the address: every tax of the location is known */
  exact?: true
  /** the point asked about (coordinates mode), or the geocoder's point for the address */
  point: { lat: number; lng: number } | null
}

/**
 * place_input_mismatch: the city or location sent names another place than the one answered. Not
 * raised where the source names no place to compare with (statutes; aggregator rows without a city).
 */
export function placeMismatch(inputPlace: string | null, candidate: Candidate, model: PlaceModel): WarningObject | null {
  if (!inputPlace || model === 'none') return null
  if (!candidate.place && model === 'name') return null
  const resolved = candidate.place?.name ?? ''
  if (resolved && placeNameMatch(placeName(resolved), placeName(inputPlace))) return null
  const county = candidate.county?.name ?? 'the county'
  const message = resolved
    ? `"${inputPlace}" was sent, but the answer is for ${resolved.toUpperCase()}, the taxing place of this location.`
    : `"${inputPlace}" was sent, but it is not the taxing place of this location: the unincorporated ${county.toUpperCase()} rates were answered.`
  return warning('place_input_mismatch', message, { customer_input_place: inputPlace, resolved_place_name: resolved.toUpperCase() })
}
