// A state whose refresh failed keeps serving what the previous snapshot held: its authorities and
// ZIP candidates and the stacks of places with no ZIP of their own are read back out of the
// previous rates index, unchanged.
import type { FeedResult, JurisdictionRef, PlaceStack, ZipCandidate } from '../snapshot-contract/model.ts'
import type { Candidate, RateIndex } from '../snapshot-contract/rate-index.ts'

export type StateData = Pick<FeedResult, 'jurisdictions' | 'candidates' | 'placeStacks'>

export function dataFromIndex(index: RateIndex, state: string): StateData {
  const jurisdictions = index.authoritiesOfState(state).map((authority) => ({ state, ...authority }))
  const refsOf = (candidate: Candidate): JurisdictionRef[] => {
    const stack = index.authorityHistory(candidate.stack)
    return [...new Map(stack.map((authority) => [`${authority.level}|${authority.code}`, { level: authority.level, code: authority.code }])).values()]
  }
  const candidates: ZipCandidate[] = []
  for (const i of index.entriesOfState(state)) {
    const entry = index.entryAt(i)
    for (const candidate of entry.candidates) {
      candidates.push({
        zip: entry.zip,
        state,
        countyFips: candidate.county?.fips || null,
        countyName: candidate.county?.name ?? '',
        placeFips: candidate.place?.geoid || null,
        placeName: candidate.place?.name ?? '',
        weight: candidate.weight,
        stack: refsOf(candidate),
        ...(candidate.basis === 'published' ? {} : { basis: candidate.basis }),
      })
    }
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
  return { jurisdictions, candidates, placeStacks }
}
