// Coordinates mode: the county and incorporated place containing the point (county polygons from
// us-atlas, 2015 Census place polygons), then the nearest ZIP centroid of the state holding a
// candidate of that county and place (no place when the point lies outside every place). Nothing
// matching: the nearest ZIP centroid, with low confidence.
//
// The us-atlas county outlines are simplified (1:10m) and cut some shores: a point in no county
// but within SHORE_REACH_KM of a ZIP centroid of its state is answered from the nearest one, with
// low confidence. Its state is the path state, else the state of a place polygon holding the point,
// else the state of the nearest centroid; a place polygon of another state than the path is a 400.
// A point inside another state's county outline stays a 400 however near the border.
import { HttpError } from '../base/errors.ts'
import type { Located } from './located.ts'
import { invalidInput, requireServed } from './lookup-errors.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'
import { nearestZip, zipPointsInCounty, type CandidateMatch, type NearestZip } from './nearest-zip.ts'
import { ownPlaceCandidate, onZipOf, placeWithoutZip } from './place-stack.ts'
import { factsOf, type SnapshotFacts, type SnapshotView } from './snapshot-facts.ts'
import type { ShapeHit } from '../../snapshot-contract/shape-index.ts'

export type PointQuery = {
  lat: number
  lng: number
  /** the path state; null when it was a placeholder (the point's state is served) */
  state: string | null
}

/**
 * How far outside the county outlines a point may lie from the nearest ZIP centroid of its state
 * and still be answered. The outlines miss shore ZIPs by up to ~4 km (60611 Chicago, 94130
 * Treasure Island); 10 km keeps piers, harbours and barrier islands, not the open sea.
 */
export const SHORE_REACH_KM = 10

/** A candidate bound to the place: by GEOID, or by name where the source names the place only. */
function inPlace(facts: SnapshotFacts, state: string, place: string): CandidateMatch {
  return (c) => c.placeGeoid === place || (c.placeGeoid === '' && c.placeName !== null && facts.placeGeoidsNamed(state, c.placeName).has(place))
}

function pointStateWarning(state: string, lat: number, lng: number): WarningObject {
  return warning('state_from_input', `The path state is not a state; served ${state}, where the point (${lat}, ${lng}) lies.`)
}

export function locatePoint(view: SnapshotView, query: PointQuery): Located {
  const { lat, lng } = query
  const hits = view.shapes.at(lng, lat)
  const counties = hits.filter((hit) => hit.kind === 'county')
  if (counties.length === 0) return locateOutsideOutlines(view, query, hits)
  const warnings: WarningObject[] = []
  let state = query.state
  if (!state) {
    state = counties[0]!.state
    warnings.push(pointStateWarning(state, lat, lng))
  }
  const county = counties.find((hit) => hit.state === state)
  if (!county) {
    const pointStates = [...new Set(counties.map((hit) => hit.state))]
    throw invalidInput(`The coordinates (${lat}, ${lng}) lie in ${pointStates.join(', ')}, outside ${state}.`, { point_state: pointStates[0], lat, lng })
  }
  const facts = factsOf(view)
  requireServed(facts, state)
  const place = hits.find((hit) => hit.kind === 'place' && hit.state === state)?.id ?? null
  const ofPlace = place === null ? null : inPlace(facts, state, place)
  const inCountyAndPlace: CandidateMatch = (c) => c.county === county.id && (ofPlace === null ? c.placeGeoid === null : ofPlace(c))

  const points = facts.zipPoints(state)
  const ofCounty = zipPointsInCounty(points, county.id)
  const exact = nearestZip(ofCounty, lat, lng, inCountyAndPlace)
  const found = exact ?? nearestZip(ofCounty, lat, lng, (c) => c.county === county.id) ?? nearestZip(points, lat, lng, () => true)
  if (!found) throw new HttpError('NOT_FOUND', `No ZIP of ${state} has a centroid to compare the point with.`, { lat, lng })
  const nearestEntry = view.rates.entryAt(found.point.entry)
  // A place with no ZIP of its own: its own rates, on the nearest ZIP of its county.
  const own = !exact && place !== null ? ownPlaceCandidate(view, state, place, county.id) : null
  if (own) warnings.push(placeWithoutZip(own, state, nearestEntry.zip))
  const entry = own ? onZipOf(nearestEntry, own) : nearestEntry
  // A statewide rate is the same at any ZIP of the state: the nearest one is as good as an exact match.
  const nearestOnly = !exact && !own && !facts.statewide(state)
  if (nearestOnly) {
    const where = place ? `county ${county.id} and place ${place}` : `county ${county.id} outside any incorporated place`
    warnings.push(warning('nearest_zip', `No ZIP of ${state} has a candidate for ${where}; the nearest ZIP centroid (${entry.zip}) was answered.`))
  }
  return {
    state,
    entry,
    choice: own ? 0 : found.index,
    chosenBy: nearestOnly ? 'nearest' : 'point',
    resolvedVia: 'coordinates',
    confidenceCap: nearestOnly ? 'low' : null,
    warnings,
    zip4: null,
    point: { lat, lng },
  }
}

/**
 * A point in no county outline: the nearest ZIP centroid within reach, whatever its place. Aggregator
 * rows name districts in place of cities (60611 is "CHICAGO METRO PIER AND EXPOSITION AUTHORITY
 * DISTRICT"), so preferring ZIPs of the place holding the point would move away from the point.
 */
function locateOutsideOutlines(view: SnapshotView, query: PointQuery, hits: readonly ShapeHit[]): Located {
  const { lat, lng } = query
  const facts = factsOf(view)
  // Place polygons (Census 1:500k) follow the shore closely: one holding the point names its state.
  const place = hits.find((hit) => hit.kind === 'place') ?? null
  if (query.state && place && place.state !== query.state) {
    throw invalidInput(`The coordinates (${lat}, ${lng}) lie in ${place.state}, outside ${query.state}.`, { point_state: place.state, lat, lng })
  }
  const states = query.state ? [query.state] : place ? [place.state] : view.rates.states
  let state: string | null = null
  let found: NearestZip | null = null
  for (const candidateState of states) {
    if (!facts.serves(candidateState)) continue
    const near = nearestZip(facts.zipPoints(candidateState), lat, lng, () => true, SHORE_REACH_KM)
    if (near && (!found || near.distanceKm < found.distanceKm)) {
      state = candidateState
      found = near
    }
  }
  if (!state || !found) {
    const of = query.state ?? place?.state
    throw new HttpError(
      'NOT_FOUND',
      `No US county contains the point (${lat}, ${lng}), and no ZIP centroid of ${of ?? 'a served state'} lies within ${SHORE_REACH_KM} km of it.`,
      { lat, lng },
    )
  }
  const entry = view.rates.entryAt(found.point.entry)
  const warnings: WarningObject[] = query.state ? [] : [pointStateWarning(state, lat, lng)]
  warnings.push(
    warning(
      'nearest_zip',
      `The point (${lat}, ${lng}) fell outside the county outlines (simplified, they cut some shores); ` +
        `the nearest ZIP centroid of ${state} (${entry.zip}, ${found.distanceKm.toFixed(1)} km away) was answered.`,
    ),
  )
  return {
    state,
    entry,
    choice: found.index,
    chosenBy: 'nearest',
    resolvedVia: 'coordinates',
    confidenceCap: 'low',
    warnings,
    zip4: null,
    point: { lat, lng },
  }
}
