// Every refusal of GET /v1/tax/{state}, worded in one place so the table in docs/api.md and the answers agree.
import { feedTraits, type FeedKind } from '../../snapshot-contract/feed-traits.ts'
import { HttpError, retryAfter } from '../base/errors.ts'
import type { SnapshotFacts } from './snapshot-facts.ts'

export const INPUT_MODES = {
  address: 'address (address, optional city and zip; or city with zip)',
  zip: 'ZIP (zip: 5 digits or ZIP+4)',
  place: 'place (location, e.g. "Springfield, IL")',
  coordinates: 'coordinates (lat and lng, both required)',
} as const

export const INPUT_PARAMETERS = ['address', 'city', 'zip', 'location', 'lat', 'lng'] as const

export function modeCountError(received: readonly string[]): HttpError {
  const what = received.length === 0 ? 'no input parameter was received' : `received ${received.join(', ')}`
  return new HttpError(
    'INVALID_INPUT',
    `Give exactly one input mode: ${Object.values(INPUT_MODES).join('; ')}. ${what[0]!.toUpperCase()}${what.slice(1)}.`,
    { received, modes: INPUT_MODES },
  )
}

export const invalidInput = (message: string, extra: Record<string, unknown> = {}) => new HttpError('INVALID_INPUT', message, extra)

/**
 * A ZIP no served state holds. When other ZIPs of its three-digit prefix are the state's, the
 * message says which list lacks it: an aggregator state's ZIPs are its edition's rows; every other
 * state's are the ZIPs of the HUD–USPS crosswalk its rates are placed with, which misses many
 * PO-box and unique ZIPs (90080 in Los Angeles).
 */
export function unknownZip(
  zip5: string,
  state: string | null,
  source?: { feed: FeedKind; edition: string | null; prefixStates: readonly string[] },
): HttpError {
  const why = !state || !source || !source.prefixStates.includes(state)
    ? 'no served state holds it'
    : feedTraits(source.feed).zipUniverse === 'edition_rows'
      ? `the ${state} source edition${source.edition ? ` (${source.edition})` : ''} lists no such ZIP`
      : `${state}'s rates are placed on the ZIPs of the HUD–USPS ZIP–county crosswalk, which does not list it (PO-box and unique ZIPs are often missing there); a place lookup (location) may still answer`
  return new HttpError('NOT_FOUND', `ZIP ${zip5} is not known${state ? ` for ${state}` : ''}: ${why}. No rate is given rather than a guess.`, { zip: zip5 })
}

export function withheldZip(zip5: string, state: string, note: string): HttpError {
  return new HttpError(
    'NOT_FOUND',
    `The rate for ZIP ${zip5} (${state}) is withheld: the source figure failed validation (${note.replace(/^ZIP \d{5} withheld \(answered as unresolved\): /, '')}). No rate is given rather than a guess.`,
    { zip: zip5, state, withheld: true },
  )
}

export function stateDataMissing(state: string, status: string): HttpError {
  return new HttpError(
    'SERVICE_UNAVAILABLE',
    `No rate data is in service for ${state} (freshness status ${status}); try again after the next refresh.`,
    { state, status },
  )
}

const stateNotServed = (state: string) =>
  new HttpError('NOT_FOUND', `State ${state} is not served: no rate data is published for it.`, { state })

/** A state the snapshot holds no rates for: 503 when it is one of ours (its data is missing), else 404. */
export function requireServed(facts: SnapshotFacts, state: string): void {
  if (!facts.serves(state)) throw facts.descriptor(state) ? stateDataMissing(state, facts.record(state)?.status ?? 'unknown') : stateNotServed(state)
}

/** The upstream geocoder could not answer; sends its wait (Retry-After) rather than a guess from the ZIP. */
export function geocoderUnavailable(reason: string, retryAfterSeconds: number): HttpError {
  return new HttpError(
    'GEOCODER_UNAVAILABLE',
    `The address geocoder is unavailable (${reason}); retry in ${retryAfterSeconds} s. A ZIP or coordinates lookup needs no geocoder.`,
    ...retryAfter(retryAfterSeconds, 'retry_after_seconds'),
  )
}
