// A state whose refresh failed keeps serving what the previous snapshot held: its authorities and
// ZIP candidates are read back out of the previous rates index, unchanged.
import type { FeedResult, ZipCandidate } from './model.ts'
import type { RateIndex } from './rate-index.ts'

export function dataFromIndex(index: RateIndex, state: string): Pick<FeedResult, 'jurisdictions' | 'candidates'> {
  const jurisdictions = index.authoritiesOfState(state).map((authority) => ({ state, ...authority }))
  const candidates: ZipCandidate[] = []
  for (const i of index.entriesOfState(state)) {
    const entry = index.entryAt(i)
    for (const candidate of entry.candidates) {
      const stack = index.authorityHistory(candidate.stack)
      const refs = new Map(stack.map((authority) => [`${authority.level}|${authority.code}`, { level: authority.level, code: authority.code }]))
      candidates.push({
        zip: entry.zip,
        state,
        countyFips: candidate.county?.fips || null,
        countyName: candidate.county?.name ?? '',
        placeFips: candidate.place?.geoid || null,
        placeName: candidate.place?.name ?? '',
        weight: candidate.weight,
        stack: [...refs.values()],
      })
    }
  }
  return { jurisdictions, candidates }
}
