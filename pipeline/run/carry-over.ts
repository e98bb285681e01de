// A state whose refresh failed keeps serving what the previous snapshot held: its authorities and
// ZIP candidates, the stacks of places with no ZIP of their own and its ZIP+4 ranges are read back
// out of the previous rates index, unchanged. So does a single ZIP whose new source row was withheld
// (`carriedZip`).
import type { FeedResult, JurisdictionRef, PlaceStack, ZipCandidate } from '../../snapshot-contract/model.ts'
import type { Candidate, RateIndex } from '../../snapshot-contract/rate-index.ts'

export type StateData = Pick<FeedResult, 'jurisdictions' | 'candidates' | 'placeStacks' | 'plus4'>

export function dataFromIndex(index: RateIndex, state: string): StateData {
  const jurisdictions = index.authoritiesOfState(state).map((authority) => ({ state, ...authority }))
  const refsOf = (candidate: Candidate): JurisdictionRef[] => {
    const stack = index.authorityHistory(candidate.stack)
    return [...new Map(stack.map((authority) => [`${authority.level}|${authority.code}`, { level: authority.level, code: authority.code }])).values()]
  }
  const candidates: ZipCandidate[] = []
  for (const i of index.entriesOfState(state)) {
    const entry = index.entryAt(i)
    for (const candidate of entry.candidates) candidates.push(zipCandidate(entry.zip, state, candidate, refsOf(candidate)))
  }
  const placeStacks: PlaceStack[] = []
  for (const candidate of index.placeCandidatesOfState(state)) {
    placeStacks.push({
      countyFips: candidate.county!.fips,
      countyName: candidate.county!.name,
      placeFips: candidate.place!.geoid,
      placeName: candidate.place!.name,
      stack: refsOf(candidate),
    })
  }
  const plus4 = index.plus4OfState(state)
  return { jurisdictions, candidates, placeStacks, ...(plus4 ? { plus4 } : {}) }
}

/** A ZIP's candidate as the index holds it, on the given stack. */
const zipCandidate = (zip: string, state: string, candidate: Candidate, stack: JurisdictionRef[]): ZipCandidate => ({
  zip,
  state,
  countyFips: candidate.county?.fips || null,
  countyName: candidate.county?.name ?? '',
  placeFips: candidate.place?.geoid || null,
  placeName: candidate.place?.name ?? '',
  weight: candidate.weight,
  stack,
  ...(candidate.basis === 'published' ? {} : { basis: candidate.basis }),
})

/** What a ZIP's previous answer brings along: its candidates and the authorities they stack. */
export type CarriedZip = { candidates: ZipCandidate[]; jurisdictions: FeedResult['jurisdictions'] }

/**
 * Marks the codes of a carried ZIP's authorities: kept apart from the new data's authorities of
 * the same code (a county's new rate must not become part of the old answer, nor the other way).
 */
export const CARRIED_SUFFIX = '@carried'

/**
 * A ZIP's answer as the previous index holds it, for a ZIP whose new source row was withheld:
 * its candidates, stacked on copies of their authorities (every version) under codes ending in
 * CARRIED_SUFFIX. Null when the previous index has no entry for the ZIP in the state.
 */
export function carriedZip(index: RateIndex, state: string, zip: string): CarriedZip | null {
  const entry = index.lookupZip(zip).find((e) => e.state === state)
  if (!entry) return null
  const carriedCode = (code: string) => (code.endsWith(CARRIED_SUFFIX) ? code : `${code}${CARRIED_SUFFIX}`)
  const jurisdictions = new Map<string, FeedResult['jurisdictions'][number]>()
  const candidates = entry.candidates.map((candidate): ZipCandidate => {
    const stack = new Map<string, JurisdictionRef>()
    for (const authority of index.authorityHistory(candidate.stack)) {
      const code = carriedCode(authority.code)
      jurisdictions.set(`${authority.level}|${code}|${authority.from}|${authority.to}|${authority.rate}`, { state, ...authority, code })
      stack.set(`${authority.level}|${code}`, { level: authority.level, code })
    }
    return zipCandidate(zip, state, candidate, [...stack.values()])
  })
  return { candidates, jurisdictions: [...jurisdictions.values()] }
}
