// Places with no ZIP of their own (pipeline: FeedResult.placeStacks): Cudahy, CA shares 90201 with
// Bell and Bell Gardens, so no ZIP candidate carries its rates. A lookup that names such a place or
// points into it answers the place's own stack, hung on a ZIP of its county near it (the answer's
// `zip`), and says so.
import type { Candidate, ZipEntry } from '../../snapshot-contract/rate-index.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'
import { distanceKm } from '../../snapshot-contract/geo-distance.ts'
import { factsOf, type SnapshotView } from './snapshot-facts.ts'

/**
 * A place named with an address is taken as the address's place when the ZIP's centroid is among
 * the NEAREST_ZIPS nearest the place's point: a place without a ZIP of its own shares those of its
 * neighbours (Cudahy lies 1.3 km from 90201's centroid, the nearest; Hidden Hills' 91302 is its
 * third nearest), while a ZIP across town (Cudahy with 90001) is not its ZIP.
 */
export const NEAREST_ZIPS = 4

/** The place's own candidate in the county (else in any of its counties); null for a place some ZIP stands for. */
export function ownPlaceCandidate(view: SnapshotView, state: string, geoid: string, countyFips: string | null): Candidate | null {
  const own = view.rates.placeCandidates(state, geoid)
  return own.find((candidate) => candidate.county?.fips === countyFips) ?? own[0] ?? null
}

/**
 * The own candidate of a place named `city` (an address's city) that has no ZIP of its own, in one
 * of the ZIP's counties, when the ZIP is one of the NEAREST_ZIPS nearest the place; null if none.
 */
export function ownPlaceNear(view: SnapshotView, entry: ZipEntry, city: string): Candidate | null {
  if (entry.lat === null || entry.lng === null) return null
  for (const place of view.places.find(city, entry.state)) {
    if (place.kind !== 'incorporated' || place.lat === null || place.lng === null) continue
    const own = view.rates.placeCandidates(entry.state, place.geoid).find((candidate) => entry.candidates.some((c) => c.county?.fips === candidate.county?.fips))
    if (!own) continue
    const reach = distanceKm(place.lat, place.lng, entry.lat, entry.lng)
    let nearer = 0
    for (const point of factsOf(view).zipPoints(entry.state)) {
      if (point.lat !== entry.lat || point.lng !== entry.lng) nearer += distanceKm(place.lat, place.lng, point.lat, point.lng) < reach ? 1 : 0
    }
    if (nearer < NEAREST_ZIPS) return own
  }
  return null
}

/** `entry` answering `candidate` alone: the ZIP it is shown with, not one of the ZIP's own candidates. */
export const onZipOf = (entry: ZipEntry, candidate: Candidate): ZipEntry => ({ ...entry, straddles: false, candidates: [candidate] })

export function placeWithoutZip(candidate: Candidate, state: string, zip: string): WarningObject {
  const name = candidate.place!.name
  return warning(
    'place_without_zip',
    `${name}, ${state} has no ZIP of its own (its ZIPs are shared with neighbouring places): its own rates were answered, with ZIP ${zip} of ${candidate.county?.name ?? 'its county'} county as the answer's ZIP.`,
    { place_geoid: candidate.place!.geoid },
  )
}
