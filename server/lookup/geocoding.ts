// Asking the optional upstream geocoder (TAXATLAS_GEOCODER_URL) about an address with a street:
// the one line it is sent, what it answered, and its failure as 503 GEOCODER_UNAVAILABLE.
import type { GeocodeMatch, Geocoder } from '../geocoder/geocode-match.ts'
import { GeocoderUnavailableError } from '../geocoder/geocoder-unavailable-error.ts'
import { geocoderUnavailable } from './lookup-errors.ts'
import type { StreetAddress } from './lookup-input.ts'

export type Geocoding =
  /** no geocoder is configured, or the input has no street */
  | { kind: 'not_asked' }
  | { kind: 'match'; address: StreetAddress; oneLine: string; match: GeocodeMatch }
  | { kind: 'no_match'; address: StreetAddress; oneLine: string }

const NOT_ASKED: Geocoding = { kind: 'not_asked' }

/** "400 BROAD ST, SEATTLE, WA 98109": the normalized parts, repairs applied. */
function oneLineAddress(address: StreetAddress): string {
  const stateAndZip = address.zip5 ? `${address.state} ${address.zip5}` : address.state
  return [address.street, address.city, stateAndZip].filter((part) => part).join(', ')
}

export async function geocode(address: StreetAddress | null, geocoder: Geocoder | undefined): Promise<Geocoding> {
  if (!address || !geocoder) return NOT_ASKED
  const oneLine = oneLineAddress(address)
  try {
    const match = await geocoder.geocodeAddress(oneLine)
    return match ? { kind: 'match', address, oneLine, match } : { kind: 'no_match', address, oneLine }
  } catch (error) {
    if (error instanceof GeocoderUnavailableError) throw geocoderUnavailable(error.message, error.retryAfterSeconds)
    throw error
  }
}
