// Place mode (and an address without a ZIP): the gazetteer's place, then the highest-weight candidate
// of its ZIPs that stands for it, in its main county first. A CDP, or a place no candidate stands
// for, answers its county with low confidence. A name that is no place of the state but a USPS
// mailing name there is answered from its ZIPs (postal-city.ts). A name found only in another
// state is a 404 naming that state, never a silent switch, unless the path state was a placeholder.
import type { PlaceMatch } from '../../snapshot-contract/place-index.ts'
import type { Candidate, ZipEntry } from '../../snapshot-contract/rate-index.ts'
import { HttpError } from '../base/errors.ts'
import type { ChosenBy } from './candidate-choice.ts'
import { placeMismatch, type ConfidenceCap, type Located } from './located.ts'
import { requireServed } from './lookup-errors.ts'
import { locatePostalCity } from './postal-city.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'
import { nearestZip, zipPointsInCounty, type CandidateMatch } from './nearest-zip.ts'
import { ownPlaceCandidate, onZipOf, placeWithoutZip } from './place-stack.ts'
import { factsOf, type SnapshotFacts, type SnapshotView, type ZipPoint } from './snapshot-facts.ts'
import { derivedView } from '../snapshot/derived-views.ts'
import { placeNameMatch, type PlaceModel } from './taxing-place.ts'

export type PlaceQuery = {
  /** the place name as sent, without its state */
  name: string
  /** the state to search; null when the path state was a placeholder and the name carried none */
  state: string | null
}

type Bound = { entry: ZipEntry; index: number; weight: number }

/**
 * How well a candidate of one of the place's ZIPs stands for the place: 3 it names the place (its
 * GEOID, or for a name-only source its name); 2 the source names no place there (aggregator row
 * without a city rate, statute), so the ZIP's rates are the place's; 0 it is another place's.
 */
function placeTier(candidate: Candidate, place: PlaceMatch, model: PlaceModel, facts: SnapshotFacts): number {
  if (model === 'none') return 2
  if (!candidate.place) return model === 'name' ? 2 : 0
  if (model === 'geoid') return candidate.place.geoid === place.geoid ? 3 : 0
  return placeNameMatch(facts.placeName(candidate.place.name), facts.placeName(place.name)) ? 3 : 1
}

/** `inState`: the places of the query's state with its name (none when it named no state). */
function findPlace(view: SnapshotView, query: PlaceQuery, inState: PlaceMatch[]): { place: PlaceMatch; warnings: WarningObject[]; cap: ConfidenceCap } {
  const warnings: WarningObject[] = []
  let matches = inState
  if (matches.length === 0) {
    const anywhere = view.places.find(query.name)
    if (anywhere.length === 0) {
      const where = query.state ? ` in ${query.state}` : ''
      throw new HttpError('NOT_FOUND', `No place named "${query.name}" is known${where}.`, { location: query.name })
    }
    const states = [...new Set(anywhere.map((p) => p.state))]
    if (query.state) {
      throw new HttpError(
        'NOT_FOUND',
        `No place named "${query.name}" is known in ${query.state}; the name exists in ${states.join(', ')}. Send that state to look it up there.`,
        { location: query.name, found_in: states },
      )
    }
    matches = anywhere
    warnings.push(warning('state_from_input', `The path state is not a state; served ${anywhere[0]!.state}, where the most populous place named "${query.name}" lies.`))
  }
  const place = matches[0]!
  let cap: ConfidenceCap = null
  if (matches.length > 1) {
    cap = matches.some((p) => p.state !== place.state) ? 'low' : 'medium'
    const others = matches.slice(1).map((p) => ({ name: p.name, state: p.state, geoid: p.geoid, kind: p.kind, population: p.population }))
    warnings.push(
      warning('place_name_ambiguous', `${matches.length} places are named "${query.name}"; answered ${place.name}, ${place.state}, ${largest(place)}.`, { others }),
    )
  }
  return { place, warnings, cap }
}

// The snapshot holds populations when its geography came with them (Geocorr); the Census files have
// none, and places of one name then come largest by land area first.
const largest = (place: PlaceMatch) =>
  place.population > 0 ? `the most populous (population ${place.population})` : 'the largest by land area (no population figures are held)'

/** Every candidate of the place's ZIPs (in the place's state) that `keep` accepts. */
function* candidatesOfPlaceZips(view: SnapshotView, place: PlaceMatch, keep: (candidate: Candidate) => boolean): Generator<Bound> {
  for (const zip of place.zips) {
    for (const entry of view.rates.lookupZip(zip)) {
      if (entry.state !== place.state) continue
      for (let index = 0; index < entry.candidates.length; index++) {
        const candidate = entry.candidates[index]!
        if (keep(candidate)) yield { entry, index, weight: candidate.weight }
      }
    }
  }
}

/**
 * The candidate answering for an incorporated place: the best tier, then the place's main county,
 * then the highest weight; among equals, a ZIP mailed under the place's name, then a
 * street-address ZIP (a ZCTA), so "Chicago, IL" answers a downtown ZIP rather than a PO box or
 * a ZIP shared with a suburb. Null when no candidate of its ZIPs can stand for it.
 */
function boundCandidate(view: SnapshotView, place: PlaceMatch, model: PlaceModel): Bound | null {
  const facts = factsOf(view)
  const placeKey = facts.placeName(place.name).key
  let best: Bound | null = null
  let bestRank = 0
  for (const bound of candidatesOfPlaceZips(view, place, () => true)) {
    const candidate = bound.entry.candidates[bound.index]!
    const tier = placeTier(candidate, place, model, facts)
    if (tier === 0) continue
    const mailedAsPlace = facts.placeName(bound.entry.city).key === placeKey
    const rank = tier * 100 + (candidate.county?.fips === place.countyFips ? 40 : 0) + bound.weight * 20 + (mailedAsPlace ? 2 : 0) + (bound.entry.zcta ? 1 : 0)
    if (rank > bestRank) {
      best = bound
      bestRank = rank
    }
  }
  return best
}

/**
 * The county's rates: an unincorporated candidate of one of the place's ZIPs in that county, else
 * of the county ZIP nearest the place; only a county with no unincorporated candidate at all
 * answers a candidate of one of its places (the warning names it).
 */
function countyCandidate(view: SnapshotView, place: PlaceMatch): Bound | null {
  if (!place.countyFips) return null
  // A CDP pays the county's rates, not a neighbouring city's.
  const best = heaviestOfPlaceZips(view, place, (c) => c.county?.fips === place.countyFips && !c.place)
  if (best) return best
  const unincorporated = nearestOfCounty(view, place, (c) => c.placeGeoid === null)
  if (!unincorporated) return nearestOfCounty(view, place, () => true)
  // Shown with the place's own ZIP, else the ZIP nearest it (East Los Angeles: 90022, bound to Los
  // Angeles by its USPS name), rather than an unincorporated ZIP across the county.
  const shown = heaviestOfPlaceZips(view, place, (c) => c.county?.fips === place.countyFips) ?? nearestOfCounty(view, place, () => true)
  return { entry: onZipOf(shown!.entry, unincorporated.entry.candidates[unincorporated.index]!), index: 0, weight: 0 }
}

/** The highest-weight candidate of the place's ZIPs that `keep` accepts. */
function heaviestOfPlaceZips(view: SnapshotView, place: PlaceMatch, keep: (candidate: Candidate) => boolean): Bound | null {
  let best: Bound | null = null
  for (const bound of candidatesOfPlaceZips(view, place, keep)) if (!best || bound.weight > best.weight) best = bound
  return best
}

/** The ZIP of the place's county nearest the place with a candidate of that county `keep` accepts. */
function nearestOfCounty(view: SnapshotView, place: PlaceMatch, keep: CandidateMatch): Bound | null {
  const points = zipPointsInCounty(factsOf(view).zipPoints(place.state), place.countyFips)
  const inCounty: CandidateMatch = (c) => c.county === place.countyFips && keep(c)
  const found = place.lat === null || place.lng === null ? firstZip(points, inCounty) : nearestZip(points, place.lat, place.lng, inCounty)
  return found && { entry: view.rates.entryAt(found.point.entry), index: found.index, weight: 0 }
}

function firstZip(points: readonly ZipPoint[], match: CandidateMatch): { point: ZipPoint; index: number } | null {
  for (const point of points) {
    const index = point.candidates.findIndex(match)
    if (index >= 0) return { point, index }
  }
  return null
}

// A place's answer depends on the snapshot and the place only: found once, then reused.
const BOUND_PLACES = derivedView('places bound', (_view: SnapshotView) => new Map<string, Bound | null>())

function cached(view: SnapshotView, key: string, find: () => Bound | null): Bound | null {
  const picks = BOUND_PLACES.of(view)
  let pick = picks.get(key)
  if (pick === undefined) {
    pick = find()
    picks.set(key, pick)
  }
  return pick
}

function countyOnly(place: PlaceMatch, answered: Candidate, zip: string): WarningObject {
  const why = place.kind === 'cdp' ? 'is a census-designated place (unincorporated)' : 'has no ZIP whose rates are its own'
  const county = (answered.county?.name ?? place.countyFips ?? '').toUpperCase()
  // A county wholly within its places has no unincorporated rates to answer.
  const what = answered.place
    ? `no ZIP of ${county} county has unincorporated rates, so those of ${answered.place.name.toUpperCase()}, the nearest place, were answered`
    : `the rates of ${county} county were answered`
  return warning('county_only', `${place.name}, ${place.state} ${why}: ${what} (ZIP ${zip}).`, { place_geoid: place.geoid, place_kind: place.kind })
}

export function locatePlace(view: SnapshotView, query: PlaceQuery, inputPlace: string): Located {
  const inState = query.state ? view.places.find(query.name, query.state) : []
  if (query.state && inState.length === 0) {
    const postal = locatePostalCity(view, query.state, query.name, inputPlace)
    if (postal) return postal
  }
  const { place, warnings, cap } = findPlace(view, query, inState)
  const facts = factsOf(view)
  requireServed(facts, place.state)
  const model = facts.placeModel(place.state)
  // A CDP is unincorporated: its county's rates apply, whatever its ZIPs' candidates name.
  let pick = place.kind === 'incorporated' || model === 'none' ? cached(view, `place ${place.geoid}`, () => boundCandidate(view, place, model)) : null
  let chosenBy: ChosenBy = 'place'
  let confidenceCap = cap
  if (pick) {
    const mismatch = placeMismatch(inputPlace, pick.entry.candidates[pick.index]!, model)
    if (mismatch) warnings.push(mismatch)
  } else {
    // A place with no ZIP of its own answers its own rates, shown with the ZIP of its county nearest it.
    const own = place.kind === 'incorporated' ? ownPlaceCandidate(view, place.state, place.geoid, place.countyFips) : null
    pick = own ? cached(view, `near ${place.geoid}`, () => nearestOfCounty(view, place, () => true)) : cached(view, `county ${place.geoid}`, () => countyCandidate(view, place))
    if (!pick) {
      throw new HttpError('NOT_FOUND', `No rate could be bound to ${place.name}, ${place.state}: no ZIP of the place or of its county is served.`, { location: inputPlace })
    }
    if (own) {
      warnings.push(placeWithoutZip(own, place.state, pick.entry.zip))
      pick = { entry: onZipOf(pick.entry, own), index: 0, weight: 1 }
    } else {
      chosenBy = 'county'
      if (model !== 'none') {
        confidenceCap = 'low'
        warnings.push(countyOnly(place, pick.entry.candidates[pick.index]!, pick.entry.zip))
      }
    }
  }
  return {
    state: place.state,
    entry: pick.entry,
    choice: pick.index,
    chosenBy,
    resolvedVia: 'place_gazetteer',
    confidenceCap,
    warnings,
    zip4: null,
    point: null,
  }
}
