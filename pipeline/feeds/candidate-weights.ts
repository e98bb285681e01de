// What the CDTFA, Avalara and statutory compilers share: which ZIPs belong to a state, how a ZIP's
// address share splits over that state's counties, and a jurisdiction table that refuses two
// different rates under one identity (state, level, code) — pitfall P37.
import { stateByCode } from '../../sources/index.ts'
import type { GeoZip, Geography } from '../../snapshot-contract/geography-model.ts'
import type { JurisdictionRate, JurisdictionRef, Level, PlaceStack, ZipCandidate } from '../../snapshot-contract/model.ts'

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

export function countyName(geography: Geography, fips: string | null): string {
  return fips === null ? '' : (geography.counties.get(fips)?.name ?? '')
}

/** A city no ZIP is bound to: its stack in each county it lies in (FeedResult.placeStacks). */
export function placeStacksOf(geography: Geography, place: { geoid: string; name: string; counties: string[] }, stackIn: (countyFips: string) => JurisdictionRef[]): PlaceStack[] {
  return place.counties.map((fips) => ({ countyFips: fips, countyName: countyName(geography, fips), placeFips: place.geoid, placeName: place.name, stack: stackIn(fips) }))
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

  /** Adds (or re-finds) a jurisdiction and returns its reference for a candidate stack. */
  add(level: Level, code: string, name: string, rate: number): JurisdictionRef {
    const key = `${level}\u0000${code}`
    const existing = this.byKey.get(key)
    if (existing && existing.rate !== rate) {
      throw new Error(
        `${this.common.state} ${level} ${code}: two rates (${existing.rate} and ${rate}) for one jurisdiction in ${this.common.source}`,
      )
    }
    if (!existing) this.byKey.set(key, { ...this.common, level, code, name, rate })
    return { level, code }
  }

  list(): JurisdictionRate[] {
    return [...this.byKey.values()]
  }
}

/** One candidate per in-state county of the ZIP, each stacked by `stackFor(countyFips)`. */
export function candidatesByCounty(
  geography: Geography,
  zip: GeoZip,
  state: string,
  stackFor: (countyFips: string | null) => Omit<ZipCandidate, 'zip' | 'state' | 'countyFips' | 'countyName' | 'weight'>[],
): ZipCandidate[] {
  return countyCandidates(zip, state).flatMap(({ fips, weight }) => {
    const variants = stackFor(fips)
    return variants.map((variant) => ({
      zip: zip.zip,
      state,
      countyFips: fips,
      countyName: countyName(geography, fips),
      weight: weight / variants.length,
      ...variant,
    }))
  })
}
