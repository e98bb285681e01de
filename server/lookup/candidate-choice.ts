// Which candidate of a ZIP entry answers: the only one, the one whose place the caller named, or
// the highest-weight one (candidates are stored highest weight first). The ZIP's own USPS city
// names no place: it is the mailing name of every address in the ZIP, suburbs included
// ("MINNEAPOLIS" for Plymouth 55441), so sending it says nothing the ZIP did not.
import type { ZipEntry } from '../../snapshot-contract/rate-index.ts'
import type { SnapshotFacts } from './snapshot-facts.ts'
import { placeName, placeNameMatch } from './taxing-place.ts'

export type ChosenBy = 'only' | 'weight' | 'city' | 'place' | 'county' | 'point' | 'nearest' | 'geocoder' | 'zip4' | 'address_range'

export type CandidateChoice = { index: number; by: ChosenBy }

export function chooseCandidate(entry: ZipEntry, city: string | null, facts: SnapshotFacts): CandidateChoice {
  if (entry.candidates.length === 1) return { index: 0, by: 'only' }
  if (city) {
    const sent = placeName(city)
    if (sent.key === facts.placeName(entry.city).key) return { index: 0, by: 'weight' }
    for (const kind of ['exact', 'prefix'] as const) {
      const index = entry.candidates.findIndex((candidate) => candidate.place !== null && placeNameMatch(facts.placeName(candidate.place.name), sent) === kind)
      if (index >= 0) return { index, by: 'city' }
    }
  }
  return { index: 0, by: 'weight' }
}
