// An address's street and house number (no +4 sent, or one that gave no exact answer) read against the
// address ranges of the state's SST boundary file (rates.bin a.* sections): the one binding whose ranges
// hold the house on its side of the street on the date answers exactly. Ranges of different bindings:
// the ZIP5 answer, with a warning. No range: the ZIP5 answer, as without a boundary file.
import type { AddressMatch, ZipEntry } from '../../snapshot-contract/rate-index.ts'
import { otherDirectionalSide, streetAddressKey } from '../../snapshot-contract/street-key.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'
import { factsOf, type SnapshotView } from './snapshot-facts.ts'
import { bindingPlaces, listedBindings, unratedWarning, type BoundReading } from './zip4-location.ts'

/** `exact`: the binding of the house's ranges; `ambiguous`: the ZIP5 answer stands, for the reason the warning gives. */
export type AddressRangeReading = ({ kind: 'exact' } & BoundReading) | { kind: 'ambiguous'; warning: WarningObject }

/**
 * Null when the street has no plain house number, the ZIP's latest source figure was not published
 * (its ranges are then not used), or no range holding the house gives a binding.
 */
export function readAddressRanges(view: SnapshotView, entry: ZipEntry, streetSent: string, isoDate: string): AddressRangeReading | null {
  const { zip, state } = entry
  const key = streetAddressKey(streetSent)
  if (!key) return null
  // "N Robert St" for "Robert St N": only where the ZIP has no ranges on the street as written.
  const otherSide = view.rates.hasStreet(zip, key.street) ? null : otherDirectionalSide(key.street)
  const street = otherSide && view.rates.hasStreet(zip, otherSide) ? otherSide : key.street
  const matches = view.rates.addressMatches(zip, street, key.house, state, isoDate)
  if (!matches.some((match) => match.read)) return null
  const facts = factsOf(view)
  if (facts.carried(zip, state) || facts.answeredByKnownLayers(zip, state)) return null
  const bindings = [...new Map(matches.map((match) => [match.binding, match])).values()]
  const sent = `${key.house} ${street}, ${zip}`
  if (bindings.length > 1) {
    const message = `The ${bindings.length} address ranges of the ${state} boundary file holding ${sent} bind it to different jurisdictions (${bindingPlaces(bindings)}): it was answered as ZIP ${zip}, not by a guess among them.`
    return { kind: 'ambiguous', warning: warning('address_ambiguous', message, { street, house: key.house, bindings: listedBindings(view, bindings, isoDate) }) }
  }
  const [{ candidate, unrated }] = bindings as [AddressMatch]
  return { kind: 'exact', entry: { ...entry, candidates: [candidate] }, unrated: unrated.length > 0 ? unratedWarning('address_unrated_district', sent, state, unrated) : null }
}
