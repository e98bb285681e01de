// Coordinates mode: the county and incorporated place containing the point (county polygons from
// us-atlas, 2015 Census place polygons), then the nearest ZIP centroid of the state holding a
// candidate of that county and place (no place when the point lies outside every place). Nothing
// matching: the nearest ZIP centroid, with low confidence.
import { HttpError } from '../http/errors.ts'
import type { Located } from './located.ts'
import { invalidInput, stateDataMissing, stateNotServed } from './lookup-errors.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'
import { factsOf, type SnapshotView, type ZipPoint } from './snapshot-facts.ts'

export type PointQuery = {
  lat: number
  lng: number
  /** the path state; null when it was a placeholder (the point's state is served) */
  state: string | null
}

type Match = (candidate: ZipPoint['candidates'][number]) => boolean

/** The nearest point holding a candidate that `match` accepts. */
function nearest(points: readonly ZipPoint[], lat: number, lng: number, match: Match): { point: ZipPoint; index: number } | null {
  const cosLat = Math.cos((lat * Math.PI) / 180)
  let best: { point: ZipPoint; index: number } | null = null
  let bestDistance = Infinity
  for (const point of points) {
    const distance = (point.lat - lat) ** 2 + ((point.lng - lng) * cosLat) ** 2
    if (distance >= bestDistance) continue
    const index = point.candidates.findIndex(match)
    if (index < 0) continue
    best = { point, index }
    bestDistance = distance
  }
  return best
}

export function locatePoint(view: SnapshotView, query: PointQuery): Located {
  const { lat, lng } = query
  const hits = view.shapes.at(lng, lat)
  const counties = hits.filter((hit) => hit.kind === 'county')
  if (counties.length === 0) {
    throw new HttpError('NOT_FOUND', `No US county contains the point (${lat}, ${lng}).`, { lat, lng })
  }
  const warnings: WarningObject[] = []
  let state = query.state
  if (!state) {
    state = counties[0]!.state
    warnings.push(warning('state_from_input', `The path state is not a state; served ${state}, where the point (${lat}, ${lng}) lies.`))
  }
  const county = counties.find((hit) => hit.state === state)
  if (!county) {
    const pointStates = [...new Set(counties.map((hit) => hit.state))]
    throw invalidInput(`The coordinates (${lat}, ${lng}) lie in ${pointStates.join(', ')}, outside ${state}.`, { point_state: pointStates[0], lat, lng })
  }
  const facts = factsOf(view)
  if (!facts.serves(state)) throw facts.descriptor(state) ? stateDataMissing(state, facts.record(state)?.status ?? 'unknown') : stateNotServed(state)
  const place = hits.find((hit) => hit.kind === 'place' && hit.state === state)?.id ?? null
  const inPlace: Match = (c) =>
    c.county === county.id &&
    (place === null
      ? c.placeGeoid === null
      : c.placeGeoid === place || (c.placeGeoid === '' && c.placeName !== null && facts.placeGeoidsNamed(state, c.placeName).has(place)))

  const points = facts.zipPoints(state)
  const exact = nearest(points, lat, lng, inPlace)
  const found = exact ?? nearest(points, lat, lng, (c) => c.county === county.id) ?? nearest(points, lat, lng, () => true)
  if (!found) throw new HttpError('NOT_FOUND', `No ZIP of ${state} has a centroid to compare the point with.`, { lat, lng })
  const entry = view.rates.entryAt(found.point.entry)
  // A statewide rate is the same at any ZIP of the state: the nearest one is as good as an exact match.
  const nearestOnly = !exact && facts.record(state)?.feed !== 'statutory'
  if (nearestOnly) {
    const where = place ? `county ${county.id} and place ${place}` : `county ${county.id} outside any incorporated place`
    warnings.push(warning('nearest_zip', `No ZIP of ${state} has a candidate for ${where}; the nearest ZIP centroid (${entry.zip}) was answered.`))
  }
  return {
    state,
    entry,
    choice: found.index,
    chosenBy: nearestOnly ? 'nearest' : 'point',
    resolvedVia: 'coordinates',
    confidenceCap: nearestOnly ? 'low' : null,
    warnings,
    zip4: null,
    point: { lat, lng },
  }
}
