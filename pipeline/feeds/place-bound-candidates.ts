// ZIP candidates for a source that publishes rates per named place and per county (CDTFA's
// workbook, IDOR's ordmache file): the geography says which counties a ZIP's addresses lie in and
// which taxing places each county part is bound to; a part bound to places the source rates answers
// their stacks (shared as placeShares ranks them), any other part its county's. Places are matched
// to the geography by name within their county.
import type { GeoPlace, Geography } from '../../snapshot-contract/geography-model.ts'
import type { JurisdictionRef, ZipCandidate } from '../../snapshot-contract/model.ts'
import { placeMatchKey, placesByMatchKey } from '../../snapshot-contract/place-names.ts'
import { candidatesByCounty, countyCode, placeShares, postalNameSpread, zipsInState } from './candidate-weights.ts'

/** The refs of a place in one county after the state's, and the name the place is answered as. */
export type PlaceTail = { name: string; refs: JurisdictionRef[] }

/**
 * Several tails for one county part, where the source gives the part several codes at different
 * rates and no way to tell which addresses are under which: the part's share is split equally
 * among them, each a candidate of the ZIP (an ambiguous answer, never a pick).
 */
export type Variants<T> = { variants: T[] }
const variantsOf = <T extends object>(tail: T | Variants<T>): T[] => ('variants' in tail ? tail.variants : [tail])

export type PlaceBoundInput = {
  geography: Geography
  state: string
  stateRef: JurisdictionRef
  /** the refs a county part outside any rated place carries after the state's and the county's own */
  countyTail: (countyFips: string) => JurisdictionRef[] | Variants<JurisdictionRef[]>
  /** the place's refs in the county (its city and its taxes); null when the source has no rates for it there */
  placeTail: (geoid: string, countyFips: string) => PlaceTail | Variants<PlaceTail> | null
  /** the county's ref in a county part (in a place, or outside any: null), none when null; default the county's own */
  countyRef?: (countyFips: string, placeGeoid: string | null) => JurisdictionRef | null
}

export type PlaceBound = {
  candidates: ZipCandidate[]
  /** `geoid|countyFips` of every place part some ZIP answers */
  usedPlaces: Set<string>
  /** county FIPS of every county some ZIP part outside a rated place answers */
  usedCounties: Set<string>
  /** ZIP candidates with no county of the state in the geography (state rate only) */
  noCounty: number
  /** ZIP-county parts bound to a place the source does not rate (answered by their county) */
  unlistedPlace: number
}

const ownCountyRef = (fips: string): JurisdictionRef => ({ level: 'county', code: countyCode(fips) })
const refs = (ref: JurisdictionRef | null): JurisdictionRef[] => (ref ? [ref] : [])

export function placeBoundCandidates({ geography, state, stateRef, countyTail, placeTail, countyRef = ownCountyRef }: PlaceBoundInput): PlaceBound {
  const usedPlaces = new Set<string>()
  const usedCounties = new Set<string>()
  let noCounty = 0
  let unlistedPlace = 0
  const spread = postalNameSpread(geography)
  const candidates = zipsInState(geography, state).flatMap((zip) =>
    candidatesByCounty(geography, zip, state, (fips) => {
      if (fips === null) {
        noCounty++
        return [{ placeFips: null, placeName: '', stack: [stateRef] }]
      }
      const bound = zip.places.filter((place) => place.countyFips === fips)
      const rated = bound.filter((place) => placeTail(place.geoid, fips) !== null)
      if (rated.length) {
        return placeShares(rated, spread).flatMap(({ place, share, basis }) => {
          const tails = variantsOf(placeTail(place.geoid, fips)!)
          usedPlaces.add(`${place.geoid}|${fips}`)
          return tails.map((tail) => ({ placeFips: place.geoid, placeName: tail.name, stack: [stateRef, ...refs(countyRef(fips, place.geoid)), ...tail.refs], share: share / tails.length, ...(basis ? { basis } : {}) }))
        })
      }
      if (bound.length) unlistedPlace++
      usedCounties.add(fips)
      return variantsOf(countyTail(fips)).map((tail) => ({ placeFips: null, placeName: '', stack: [stateRef, ...refs(countyRef(fips, null)), ...tail] }))
    }),
  )
  return { candidates, usedPlaces, usedCounties, noCounty, unlistedPlace }
}

/** The placeTail of cities bound by `geoid|countyFips`, each answering its one ref. */
export const boundCityTail =
  (cityOf: ReadonlyMap<string, { name: string; ref: JurisdictionRef }>) =>
  (geoid: string, countyFips: string): PlaceTail | null => {
    const city = cityOf.get(`${geoid}|${countyFips}`)
    return city ? { name: city.name, refs: [city.ref] } : null
  }

/** The note of a feed's ZIP parts with no county of its state in the geography (none when there are none). */
export const noCountyNotes = (state: string, noCounty: number): string[] => (noCounty ? [`${noCounty} ZIP candidates have no ${state} county in geography: state rate only`] : [])

/** The closing notes of a place-bound feed: its `noun` (jurisdiction codes, …) left unplaced, and its ZIP parts with no county. */
export const placeBoundNotes = (state: string, noun: string, unplaced: number, noCounty: number): string[] => [
  ...(unplaced ? [`${unplaced} ${noun} could not be bound to ZIPs and are listed as unplaced`] : []),
  ...noCountyNotes(state, noCounty),
]

/** A state's geography places by the match keys of their names, for placeNamedIn. */
export const statePlacesByKey = (geography: Geography, state: string): Map<string, GeoPlace[]> => placesByMatchKey([...geography.places.values()].filter((place) => place.state === state))

/**
 * The geography place a source names in a county (null county: anywhere in the state): an
 * incorporated one first, since a city incorporated after the 2020 Census (Mountain House, CA,
 * 2024) is still a CDP there.
 */
export function placeNamedIn(byKey: ReadonlyMap<string, GeoPlace[]>, name: string, countyFips: string | null): GeoPlace | undefined {
  const inCounty = (byKey.get(placeMatchKey(name)) ?? []).filter((place) => countyFips === null || place.counties.some((c) => c.fips === countyFips))
  return inCounty.find((place) => place.kind === 'incorporated') ?? inCounty[0]
}
