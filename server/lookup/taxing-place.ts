// How a source names the taxing place of a candidate, and when a name sent by a caller is that place.
// SST files, the CDTFA workbook and IDOR's ordmache file bind Census places (GEOIDs): no place means unincorporated.
// Avalara tables name tax regions only ("AUBURN/KING SPECIAL TAX DIST"), and a row without a city
// rate names none, which says nothing about incorporation. Statutes model no places at all.
import type { FeedTraits } from '../../snapshot-contract/feed-traits.ts'
import { placeMatchWords } from '../../snapshot-contract/place-names.ts'

export type PlaceModel = FeedTraits['placeModel']

/** A place name in comparable form: "St. Paul" → words "SAINT PAUL", key "SAINTPAUL"; "City of Industry" → "INDUSTRY". */
export type PlaceName = { words: string; key: string }

export function placeName(name: string): PlaceName {
  const words = placeMatchWords(name)
  return { words, key: words.replace(/ /g, '') }
}

/** `exact`: the same name ("St. Paul" / "Saint Paul"); `prefix`: a region named after the place ("AUBURN/KING …"). */
export function placeNameMatch(candidate: PlaceName, sent: PlaceName): 'exact' | 'prefix' | null {
  if (!sent.key) return null
  if (candidate.key === sent.key) return 'exact'
  return candidate.words.startsWith(`${sent.words} `) ? 'prefix' : null
}
