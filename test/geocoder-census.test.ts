// The Census Geocoder adapter against a local fake of the API: parsing of the documented JSON,
// the request it sends, and every upstream failure reported as GeocoderUnavailableError.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCensusGeocoder } from '../server/geocoder/census-geocoder.ts'
import { readGeocoderSettings } from '../server/geocoder/geocoder-settings.ts'
import { GeocoderUnavailableError, retryAfterSeconds } from '../server/geocoder/geocoder-unavailable-error.ts'
import { SettingsError } from '../server/base/settings-error.ts'
import { closedPortUrl, startFakeCensusGeocoder, type FakeCensusGeocoder } from './support/geocoder-fake.ts'

let fake: FakeCensusGeocoder
beforeAll(async () => {
  fake = await startFakeCensusGeocoder()
})
afterAll(() => fake?.close())
beforeEach(() => {
  fake.behavior = { kind: 'answer' }
  fake.requests.length = 0
})

const geocoder = (options: { timeoutMs?: number; benchmark?: string; vintage?: string } = {}) =>
  createCensusGeocoder({ baseUrl: fake.baseUrl, timeoutMs: options.timeoutMs ?? 30_000, ...options })

async function unavailable(promise: Promise<unknown>): Promise<GeocoderUnavailableError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(GeocoderUnavailableError)
  return error as GeocoderUnavailableError
}

describe('a match', () => {
  it('reads the point, ZIP, state, county and incorporated place of the White House', async () => {
    expect(await geocoder().geocodeAddress('1600 Pennsylvania Ave NW, Washington, DC 20500')).toEqual({
      matchedAddress: '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500',
      lat: 38.89869091865551,
      lng: -77.03654395730786,
      zip5: '20500',
      state: 'DC',
      countyFips: '11001',
      countyName: 'District of Columbia',
      placeGeoid: '1150000',
      placeName: 'Washington',
    })
  })

  it('reads a Seattle address as King County and the city of Seattle', async () => {
    expect(await geocoder().geocodeAddress('400 Broad St, Seattle, WA 98109')).toMatchObject({
      zip5: '98109',
      state: 'WA',
      countyFips: '53033',
      countyName: 'King',
      placeGeoid: '5363000',
      placeName: 'Seattle',
    })
  })

  it('gives no place for an address outside any incorporated place (a CDP is not one)', async () => {
    expect(await geocoder().geocodeAddress('4801 E 3rd St, Los Angeles, CA 90022')).toMatchObject({
      countyFips: '06037',
      countyName: 'Los Angeles',
      placeGeoid: null,
      placeName: null,
    })
  })

  it('uses the first of several matches', async () => {
    expect(await geocoder().geocodeAddress('400 Broad St')).toMatchObject({ matchedAddress: '400 BROAD ST, SEATTLE, WA, 98109' })
  })

  it('answers null when the API matches nothing', async () => {
    expect(await geocoder().geocodeAddress('1 Nowhere Rd, Atlantis, ZZ 00000')).toBeNull()
  })
})

describe('the request', () => {
  it('asks geographies/onelineaddress for the address, the default benchmark and vintage, as JSON', async () => {
    const address = '1600 Pennsylvania Ave NW, Washington, DC 20500 & #1'
    await geocoder().geocodeAddress(address)
    expect(fake.requests).toHaveLength(1)
    const url = fake.requests[0]
    expect(url.pathname).toBe('/geocoder/geographies/onelineaddress')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      address,
      benchmark: 'Public_AR_Current',
      vintage: 'Current_Current',
      format: 'json',
    })
  })

  it('sends a configured benchmark and vintage, and tolerates a trailing slash on the base URL', async () => {
    const custom = createCensusGeocoder({ baseUrl: `${fake.baseUrl}/`, timeoutMs: 30_000, benchmark: 'Public_AR_Census2020', vintage: 'Census2020_Census2020' })
    await custom.geocodeAddress('400 Broad St, Seattle, WA 98109')
    const url = fake.requests[0]
    expect(url.pathname).toBe('/geocoder/geographies/onelineaddress')
    expect(url.searchParams.get('benchmark')).toBe('Public_AR_Census2020')
    expect(url.searchParams.get('vintage')).toBe('Census2020_Census2020')
  })
})

describe('an upstream that cannot answer', () => {
  it('500: unavailable, retry after the default 30 s', async () => {
    fake.behavior = { kind: 'status', status: 500 }
    const error = await unavailable(geocoder().geocodeAddress('400 Broad St, Seattle, WA 98109'))
    expect(error.retryAfterSeconds).toBe(30)
    expect(error.message).toMatch(/HTTP 500/)
  })

  it('503 with Retry-After: 12: unavailable, retry after 12 s', async () => {
    fake.behavior = { kind: 'status', status: 503, retryAfter: '12' }
    expect((await unavailable(geocoder().geocodeAddress('400 Broad St, Seattle, WA 98109'))).retryAfterSeconds).toBe(12)
  })

  it('no answer within the timeout: unavailable', async () => {
    fake.behavior = { kind: 'hang' }
    const error = await unavailable(geocoder({ timeoutMs: 150 }).geocodeAddress('400 Broad St, Seattle, WA 98109'))
    expect(error.retryAfterSeconds).toBe(30)
    expect(error.message).toMatch(/no answer within 150 ms/)
  })

  it('a body that stops half-way and never ends: unavailable once the timeout passes', async () => {
    fake.behavior = { kind: 'hang', afterHeaders: true }
    expect((await unavailable(geocoder({ timeoutMs: 150 }).geocodeAddress('400 Broad St, Seattle, WA 98109'))).message).toMatch(/no answer within 150 ms/)
  })

  it('a body that is not JSON: unavailable', async () => {
    fake.behavior = { kind: 'body', text: '{"result": {"input": {"address": ' }
    const error = await unavailable(geocoder().geocodeAddress('400 Broad St, Seattle, WA 98109'))
    expect(error.retryAfterSeconds).toBe(30)
    expect(error.message).toMatch(/not JSON/)
  })

  it('JSON in another shape: unavailable', async () => {
    fake.behavior = { kind: 'body', text: JSON.stringify({ errors: ['Invalid benchmark'], status: '400' }) }
    await unavailable(geocoder().geocodeAddress('400 Broad St, Seattle, WA 98109'))
    fake.behavior = {
      kind: 'body',
      text: JSON.stringify({ result: { input: {}, addressMatches: [{ matchedAddress: 'X', coordinates: { x: 0, y: 0 }, addressComponents: { zip: '98109', state: 'WA' }, geographies: {} }] } }),
    }
    expect((await unavailable(geocoder().geocodeAddress('400 Broad St, Seattle, WA 98109'))).message).toMatch(/geographies\.Counties/)
  })

  it('a refused connection: unavailable', async () => {
    const refused = createCensusGeocoder({ baseUrl: await closedPortUrl(), timeoutMs: 2_000 })
    const error = await unavailable(refused.geocodeAddress('400 Broad St, Seattle, WA 98109'))
    expect(error.retryAfterSeconds).toBe(30)
    expect(error.message).toMatch(/ECONNREFUSED/)
  })
})

describe('Retry-After', () => {
  const now = Date.parse('2026-11-21T12:00:00Z')
  it('reads delay-seconds and HTTP-dates; anything else is 30 s', () => {
    expect(retryAfterSeconds('12', now)).toBe(12)
    expect(retryAfterSeconds('Sat, 21 Nov 2026 12:01:30 GMT', now)).toBe(90)
    expect(retryAfterSeconds('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(30)
    expect(retryAfterSeconds('soon', now)).toBe(30)
    expect(retryAfterSeconds(null, now)).toBe(30)
  })
})

describe('settings', () => {
  it('is off unless TAXATLAS_GEOCODER_URL is set', () => {
    expect(readGeocoderSettings({})).toBeNull()
    expect(readGeocoderSettings({ TAXATLAS_GEOCODER_URL: '' })).toBeNull()
  })

  it('reads the URL with a 3000 ms default timeout and the current benchmark and vintage', () => {
    expect(readGeocoderSettings({ TAXATLAS_GEOCODER_URL: 'https://geocoding.geo.census.gov/geocoder' })).toEqual({
      baseUrl: 'https://geocoding.geo.census.gov/geocoder',
      timeoutMs: 3_000,
      benchmark: 'Public_AR_Current',
      vintage: 'Current_Current',
    })
    expect(readGeocoderSettings({ TAXATLAS_GEOCODER_URL: 'http://127.0.0.1:9/geocoder', TAXATLAS_GEOCODER_TIMEOUT_MS: '800' })?.timeoutMs).toBe(800)
  })

  it('refuses a URL or timeout it cannot use', () => {
    expect(() => readGeocoderSettings({ TAXATLAS_GEOCODER_URL: 'geocoding.geo.census.gov' })).toThrow(SettingsError)
    expect(() => readGeocoderSettings({ TAXATLAS_GEOCODER_URL: 'ftp://example.test/geocoder' })).toThrow(/TAXATLAS_GEOCODER_URL/)
    expect(() => readGeocoderSettings({ TAXATLAS_GEOCODER_URL: 'https://x.test', TAXATLAS_GEOCODER_TIMEOUT_MS: '0' })).toThrow(/TAXATLAS_GEOCODER_TIMEOUT_MS/)
  })
})
