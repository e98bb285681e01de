// What the CDTFA, Avalara and statutory compilers share: which ZIPs belong to a state, how a ZIP's
// address share splits over that state's counties, and a jurisdiction table that refuses two
// different rates under one identity (state, level, code) — trap P37.
import { stateByCode } from '../../sources/index.ts'
import { distanceKm } from '../../snapshot-contract/geo-distance.ts'
import type { GeoCounty, GeoZip, GeoZipPlace, Geography } from '../../snapshot-contract/geography-model.ts'
import type { CandidateBasis, JurisdictionRate, JurisdictionRef, Level, PlaceStack, ZipCandidate } from '../../snapshot-contract/model.ts'
import { placeMatchKey } from '../../snapshot-contract/place-names.ts'

export type CountyShare = { fips: string | null; weight: number }

/**
 * The share given to the preferred of two candidates of one ZIP (or county part) when no measured
 * share of each is held: a ranking that says which one answers, not a measurement.
 */
export const PREFERRED_SHARE = 2 / 3

function stateFips(state: string): string {
  const fips = stateByCode(state)?.fips
  if (!fips) throw new Error(`unknown state code ${state}`)
  return fips
}

/**
 * The ZIP's counties inside `state` with their address shares rescaled to sum to 1. A ZIP with no
 * county in the state (a PO-box ZIP HUD could not place, a DC federal ZIP located in VA) gets one
 * null-county candidate of weight 1: the state still answers for it.
 */
export function countyCandidates(zip: GeoZip, state: string): CountyShare[] {
  const prefix = stateFips(state)
  const inState = zip.counties.filter((county) => county.fips.startsWith(prefix))
  const total = inState.reduce((sum, county) => sum + county.weight, 0)
  if (inState.length === 0) return [{ fips: null, weight: 1 }]
  // All-zero weights happen on ZIPs with no addresses of that kind; share equally rather than divide by 0.
  if (total <= 0) return inState.map((county) => ({ fips: county.fips, weight: 1 / inState.length }))
  return inState.map((county) => ({ fips: county.fips, weight: county.weight / total }))
}

/**
 * ZIPs a state's feed answers for: USPS says the ZIP is in the state, or some of its addresses are
 * (a straddler such as 42223, USPS KY with most addresses in TN). Sorted for stable output.
 */
export function zipsInState(geography: Geography, state: string): GeoZip[] {
  const zips = [...geography.zips.values()].filter((zip) => zip.state === state || zip.states.includes(state))
  return zips.sort((a, b) => a.zip.localeCompare(b.zip))
}

/** County jurisdiction code: the 3-digit county part of a 5-digit FIPS. */
export const countyCode = (fips: string): string => fips.slice(2)

/** A county name in comparable form: "DUPAGE", "DuPage County" and "Du Page" meet. */
export const countyMatchKey = (name: string): string => placeMatchKey(name.replace(/\s+county$/i, ''))

/** A state's counties of the geography by the match key of their name (`key`, countyMatchKey by default). */
export function countiesByMatchKey(geography: Geography, state: string, key: (name: string) => string = countyMatchKey): Map<string, GeoCounty> {
  return new Map([...geography.counties.values()].filter((c) => c.state === state).map((c) => [key(c.name), c]))
}

export function countyName(geography: Geography, fips: string | null): string {
  return fips === null ? '' : (geography.counties.get(fips)?.name ?? '')
}

/** A city no ZIP is bound to: its stack in each county it lies in (FeedResult.placeStacks). */
export function placeStacksOf(geography: Geography, place: { geoid: string; name: string; counties: string[] }, stackIn: (countyFips: string) => JurisdictionRef[]): PlaceStack[] {
  return place.counties.map((fips) => ({ countyFips: fips, countyName: countyName(geography, fips), placeFips: place.geoid, placeName: place.name, stack: stackIn(fips) }))
}

/**
 * The share a place with no ZIP of its own takes of the county part of the ZIP it lies in: a
 * ranking below the places the ZIP is bound to; where none is (the part is unincorporated as far as
 * the ZIP's name and point tell), PREFERRED_SHARE: a city known to lie there beats no city.
 */
export const WITHIN_ZIP_SHARE = 1 / 4

/**
 * `candidates` with each place of `stacks` (cities no ZIP is bound to) added to the ZIP whose Census
 * point lies nearest the place's point among the ZIPs of its counties — the ZIP it lies in, as far as
 * points tell — taking WITHIN_ZIP_SHARE of that county part (basis within_zip).
 */
export function withinZipCandidates(geography: Geography, candidates: ZipCandidate[], stacks: PlaceStack[]): ZipCandidate[] {
  const partKey = (zip: string, countyFips: string | null) => `${zip}|${countyFips}`
  const added = new Map<string, PlaceStack>()
  for (const geoid of new Set(stacks.map((s) => s.placeFips))) {
    const place = geography.places.get(geoid)
    if (place?.lat == null || place.lng == null) continue
    const own = stacks.filter((s) => s.placeFips === geoid)
    let nearest: { candidate: ZipCandidate; stack: PlaceStack; distance: number } | null = null
    for (const candidate of candidates) {
      const zip = geography.zips.get(candidate.zip)
      const stack = own.find((s) => s.countyFips === candidate.countyFips)
      if (!stack || zip?.centroidSource !== 'zcta') continue
      const distance = distanceKm(place.lat, place.lng, zip.lat!, zip.lng!)
      if (!nearest || distance < nearest.distance) nearest = { candidate, stack, distance }
    }
    const key = nearest && partKey(nearest.candidate.zip, nearest.candidate.countyFips)
    if (nearest && !added.has(key!)) added.set(key!, nearest.stack)
  }
  if (added.size === 0) return candidates
  const parts = new Map<string, { weight: number; share: number }>()
  for (const c of candidates) {
    const key = partKey(c.zip, c.countyFips)
    if (!added.has(key)) continue
    const part = parts.get(key) ?? { weight: 0, share: PREFERRED_SHARE }
    part.weight += c.weight
    if (c.placeFips) part.share = WITHIN_ZIP_SHARE
    parts.set(key, part)
  }
  const listed = new Set<string>()
  return candidates.flatMap((candidate) => {
    const key = partKey(candidate.zip, candidate.countyFips)
    const stack = added.get(key)
    if (!stack) return [candidate]
    const part = parts.get(key)!
    const scaled = { ...candidate, weight: candidate.weight * (1 - part.share) }
    if (listed.has(key)) return [scaled]
    listed.add(key)
    const within: ZipCandidate = { zip: candidate.zip, state: candidate.state, countyFips: stack.countyFips, countyName: stack.countyName, placeFips: stack.placeFips, placeName: stack.placeName, weight: part.weight * part.share, stack: stack.stack, basis: 'within_zip' }
    return [scaled, within]
  })
}

/** The manifest note saying how many cities keep such stacks (none when there are none). */
export const placeStacksNotes = (stacks: PlaceStack[]): string[] =>
  stacks.length ? [`${new Set(stacks.map((p) => p.placeFips)).size} cities with no ZIP of their own keep their stack for lookups that name or point into them`] : []

export function placeCode(geoid: string): string {
  return geoid.slice(2)
}

type WindowAndSource = Pick<JurisdictionRate, 'state' | 'from' | 'to' | 'source'>

/** Collects a feed's jurisdictions; identity is (level, code) within the feed's state. */
export class JurisdictionTable {
  private readonly byKey = new Map<string, JurisdictionRate>()

  constructor(private readonly common: WindowAndSource) {}

  /** Adds (or re-finds) a jurisdiction and returns its reference for a candidate stack; `filingCode`: the code the state's return names it by, where it is not `code`. */
  add(level: Level, code: string, name: string, rate: number, filingCode?: string): JurisdictionRef {
    const key = `${level}\u0000${code}`
    const existing = this.byKey.get(key)
    if (existing && existing.rate !== rate) {
      throw new Error(
        `${this.common.state} ${level} ${code}: two rates (${existing.rate} and ${rate}) for one jurisdiction in ${this.common.source}`,
      )
    }
    if (!existing) this.byKey.set(key, { ...this.common, level, code, name, rate, ...(filingCode ? { filingCode } : {}) })
    return { level, code }
  }

  list(): JurisdictionRate[] {
    return [...this.byKey.values()]
  }
}

type Variant = Omit<ZipCandidate, 'zip' | 'state' | 'countyFips' | 'countyName' | 'weight'> & { share?: number }

/**
 * One candidate per in-state county of the ZIP, each stacked by `stackFor(countyFips)`; a county
 * part with several variants splits its weight by their `share` (equally when they give none).
 */
export function candidatesByCounty(geography: Geography, zip: GeoZip, state: string, stackFor: (countyFips: string | null) => Variant[]): ZipCandidate[] {
  return countyCandidates(zip, state).flatMap(({ fips, weight }) => {
    const variants = stackFor(fips)
    return variants.map(({ share, ...variant }) => ({
      zip: zip.zip,
      state,
      countyFips: fips,
      countyName: countyName(geography, fips),
      weight: weight * (share ?? 1 / variants.length),
      ...variant,
    }))
  })
}

/**
 * A USPS city name given to this many ZIPs whose Census point lies in another taxing place is a
 * postal name spread over suburbs (MINNEAPOLIS for Plymouth 55441, MILWAUKEE for Wauwatosa 53213,
 * LOS ANGELES for Commerce 90040): it says little about where a ZIP's addresses are.
 */
export const SPREAD_POSTAL_NAME = 2

/** Per place GEOID: how many ZIPs bear its name as their USPS city while their point lies in another place. */
export function postalNameSpread(geography: Geography): Map<string, number> {
  const spread = new Map<string, number>()
  for (const zip of geography.zips.values()) {
    const named = zip.places.find((place) => place.method === 'preferred_city')
    if (named && zip.places.some((place) => place.method === 'centroid_polygon')) spread.set(named.geoid, (spread.get(named.geoid) ?? 0) + 1)
  }
  return spread
}

/**
 * Places bound by the Census ZCTA→place file carry their share of the ZIP's land: the county part
 * splits among them in proportion (basis zip_area). Null when any lacks a share.
 */
function measuredShares(places: GeoZipPlace[]): PlaceShare[] | null {
  if (places.length === 0 || places.some((place) => place.share === undefined)) return null
  if (places.length === 1) return [{ place: places[0]!, share: 1 }]
  const total = places.reduce((sum, place) => sum + place.share!, 0)
  return places.map((place) => ({ place, share: total > 0 ? place.share! / total : 1 / places.length, basis: 'zip_area' }))
}

/** `basis` absent: the place is the only one of its county part (published) */
export type PlaceShare = { place: GeoZipPlace; share: number; basis?: CandidateBasis }

/**
 * The taxing places of one county part of a ZIP (those its source names) with their shares. The
 * geography binds at most two: the place holding the ZIP's Census point and the one its USPS city
 * names. No measured share of each is held (the Census ZCTA-to-place relationship file would give
 * one), so the USPS city is preferred — West Hollywood 90069, Gardena 90248, Del Mar 92014 and
 * Burlingame 94010 are mostly the city they are mailed as, their points lying in a neighbour — where
 * the source names that city (`named`: a rate file listing only taxing cities does not name Osseo,
 * MN, the post office of Maple Grove's 55369), unless its name is a postal name spread over suburbs
 * (SPREAD_POSTAL_NAME); otherwise the point's place is.
 */
export function placeShares(places: GeoZipPlace[], spread: ReadonlyMap<string, number>, named: (geoid: string) => boolean = () => true): PlaceShare[] {
  const measured = measuredShares(places)
  if (measured) return measured
  const usps = places.find((place) => place.method === 'preferred_city')
  const point = places.find((place) => place.method === 'centroid_polygon')
  if (places.length !== 2 || !usps || !point) return places.map((place) => ({ place, share: 1 / places.length }))
  const uspsPreferred = named(usps.geoid) && (spread.get(usps.geoid) ?? 0) < SPREAD_POSTAL_NAME
  return [
    { place: point, share: uspsPreferred ? 1 - PREFERRED_SHARE : PREFERRED_SHARE, basis: 'zip_point' },
    { place: usps, share: uspsPreferred ? PREFERRED_SHARE : 1 - PREFERRED_SHARE, basis: 'usps_city' },
  ]
}
