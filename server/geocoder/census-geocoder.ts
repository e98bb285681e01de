// Adapter for the free US Census Geocoder "geographies" API: one-line address in, the matched
// point with its county and incorporated place out. Optional and off by default (see
// geocoder-settings.ts); every way the upstream can fail becomes GeocoderUnavailableError.
import type { EnvHttpProxyAgent } from 'undici'
import { loadUndici, type Undici } from '../base/undici.ts'
import { CensusGeographiesResponse, type CensusAddressMatch } from './census-response.ts'
import type { GeocodeMatch, Geocoder } from './geocode-match.ts'
import { GeocoderUnavailableError, retryAfterSeconds } from './geocoder-unavailable-error.ts'

export const CENSUS_DEFAULT_BENCHMARK = 'Public_AR_Current'
export const CENSUS_DEFAULT_VINTAGE = 'Current_Current'

export type CensusGeocoderOptions = {
  /** e.g. https://geocoding.geo.census.gov/geocoder (no trailing path) */
  baseUrl: string
  /** covers the whole exchange: connecting, waiting and reading the body */
  timeoutMs: number
  benchmark?: string
  vintage?: string
  fetch?: typeof fetch
}

// Node 20's built-in fetch ignores the proxy variables; undici's EnvHttpProxyAgent follows
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY (CONNECT for https), and TLS trusts NODE_EXTRA_CA_CERTS.
// Made before the server listens when a geocoder is configured (optional-features.ts).
let proxyAware: Promise<{ fetch: Undici['fetch']; agent: EnvHttpProxyAgent }> | null = null
export const loadProxyAwareFetch = () => (proxyAware ??= loadUndici().then((undici) => ({ fetch: undici.fetch, agent: new undici.EnvHttpProxyAgent() })))
const envProxyFetch = (async (input: string, init?: RequestInit) => {
  const { fetch, agent } = await loadProxyAwareFetch()
  return fetch(input, { ...(init as object), dispatcher: agent })
}) as unknown as typeof fetch

export function createCensusGeocoder(options: CensusGeocoderOptions): Geocoder {
  const fetchImpl = options.fetch ?? envProxyFetch
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/geographies/onelineaddress`
  const benchmark = options.benchmark ?? CENSUS_DEFAULT_BENCHMARK
  const vintage = options.vintage ?? CENSUS_DEFAULT_VINTAGE

  return {
    async geocodeAddress(oneLine) {
      const query = new URLSearchParams({ address: oneLine, benchmark, vintage, format: 'json' })
      const text = await fetchText(fetchImpl, `${endpoint}?${query}`, options.timeoutMs)
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch (error) {
        throw new GeocoderUnavailableError('census geocoder answered with a body that is not JSON', undefined, { cause: error })
      }
      const parsed = CensusGeographiesResponse.safeParse(json)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw new GeocoderUnavailableError(`census geocoder answered in an unknown shape (${issue.path.join('.')}: ${issue.message})`)
      }
      // The API ranks its matches; the first is its best, and the only one used.
      const first = parsed.data.result.addressMatches[0]
      return first ? toGeocodeMatch(first) : null
    },
  }
}

async function fetchText(fetchImpl: typeof fetch, url: string, timeoutMs: number): Promise<string> {
  try {
    const response = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) })
    if (!response.ok) {
      await response.body?.cancel()
      throw new GeocoderUnavailableError(`census geocoder answered HTTP ${response.status}`, retryAfterSeconds(response.headers.get('retry-after')))
    }
    return await response.text()
  } catch (error) {
    if (error instanceof GeocoderUnavailableError) throw error
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describeFetchFailure(error)
    throw new GeocoderUnavailableError(`census geocoder unreachable: ${reason}`, undefined, { cause: error })
  }
}

/** undici hides the socket error (ECONNREFUSED, ENOTFOUND) behind `fetch failed`. */
function describeFetchFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error as Error).message
}

function toGeocodeMatch(match: CensusAddressMatch): GeocodeMatch {
  const { Counties: counties, 'Incorporated Places': places = [], States: states = [] } = match.geographies
  const [county] = counties
  const place = places[0]
  return {
    matchedAddress: match.matchedAddress,
    lat: match.coordinates.y,
    lng: match.coordinates.x,
    zip5: match.addressComponents.zip,
    state: states[0]?.STUSAB ?? match.addressComponents.state,
    countyFips: county.GEOID,
    countyName: county.BASENAME ?? county.NAME,
    placeGeoid: place?.GEOID ?? null,
    placeName: place ? (place.BASENAME ?? place.NAME) : null,
  }
}
