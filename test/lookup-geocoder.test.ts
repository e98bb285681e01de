// The optional upstream geocoder (TAXATLAS_GEOCODER_URL) in address lookups, through real servers on
// port 0 with the real all-states snapshot and a local fake of the Census Geocoder: its county and
// place choose the candidate (resolved_via census_geocoder), no usable match falls back to the
// embedded resolution with a warning, an unreachable geocoder is a 503 GEOCODER_UNAVAILABLE with
// Retry-After, and without the setting it is never asked.
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { ERROR_STATUS, ErrorBody } from '../server/base/errors.ts'
import { NativeRatesBody } from '../server/portability/rates-native.ts'
import { CENSUS_MATCHES, censusAnswer, censusMatch } from './support/geocoder-census-bodies.ts'
import { closedPortUrl, startFakeCensusGeocoder, type FakeCensusGeocoder } from './support/geocoder-fake.ts'
import { fullLookup, simpleLookup, warningCodes, warningOf } from './support/lookup-bodies.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { lookupArtifacts, type LookupArtifacts } from './support/lookup-snapshots.ts'

let artifacts: LookupArtifacts
let fake: FakeCensusGeocoder
let geocoded: LookupServer
let unreachable: LookupServer
let unset: LookupServer

beforeAll(async () => {
  artifacts = await lookupArtifacts(inject('mirrorUrl'))
  fake = await startFakeCensusGeocoder()
  geocoded = await startLookupServer(artifacts, { TAXATLAS_GEOCODER_URL: fake.baseUrl, TAXATLAS_GEOCODER_TIMEOUT_MS: '30000' })
  unreachable = await startLookupServer(artifacts, { TAXATLAS_GEOCODER_URL: await closedPortUrl() })
  unset = await startLookupServer(artifacts)
})
afterAll(async () => {
  await Promise.all([geocoded?.close(), unreachable?.close(), unset?.close()])
  await fake?.close()
})
beforeEach(() => {
  fake.behavior = { kind: 'answer' }
  fake.requests.length = 0
})

const path = (route: string, params: Record<string, string>) => `${route}?${new URLSearchParams(params)}`

async function ok(server: LookupServer, url: string) {
  const response = await server.get(url)
  expect(response.status, `${url}: ${JSON.stringify(response.body)}`).toBe(200)
  return response.body
}

const askedFor = () => fake.requests.map((url) => url.searchParams.get('address'))

const answerWith = (oneLine: string, matches: unknown[]) => {
  fake.behavior = { kind: 'body', text: JSON.stringify(censusAnswer(oneLine, matches)) }
}

// GA 30011 spans Auburn in Barrow County (8%, the highest weight) and unincorporated Gwinnett County (6%).
const AUBURN_STREET = '100 Main St, GA 30011'
const AUBURN_ONE_LINE = '100 MAIN ST, GA 30011'
const gwinnett = censusMatch({ address: '100 MAIN ST, DACULA, GA, 30011', zip: '30011', state: 'GA', county: ['13135', 'Gwinnett'], place: null, x: -83.9, y: 34.0 })
const auburn = censusMatch({ address: '100 MAIN ST, AUBURN, GA, 30011', zip: '30011', state: 'GA', county: ['13013', 'Barrow'], place: ['1304140', 'Auburn'], x: -83.83, y: 34.01 })

describe('a configured geocoder chooses the candidate', () => {
  it("by name where the source names places only: 400 Broad St is King County's Seattle", async () => {
    const body = await fullLookup(geocoded, path('/v1/tax/wa', { address: '400 Broad St, Seattle, WA 98109', mode: 'full' }))
    expect(askedFor()).toEqual(['400 BROAD ST, SEATTLE, WA 98109'])
    expect(body.meta.resolved_via).toBe('census_geocoder')
    expect(body.rate).toMatchObject({ zip: '98109', county: 'KING', city: 'SEATTLE' })
    expect(body.rate.combined_rate).toBe((await simpleLookup(unset, '/v1/tax/wa?zip=98109')).rate.combined_rate)
    expect(body.resolved_place).toMatchObject({ resolved_via: 'census_geocoder', lat: 47.62044830733082, lng: -122.34930614287946 })
    expect(warningCodes(body.meta.warnings)).not.toContain('geocoder_no_match')
  })

  it("by county and GEOID, against the ZIP's weights: a Gwinnett address in 30011 answers Gwinnett's 6%", async () => {
    const embedded = await simpleLookup(unset, path('/v1/tax/ga', { address: AUBURN_STREET }))
    expect(embedded.rate).toMatchObject({ county: 'BARROW', combined_rate: '0.08000' })
    expect(warningCodes(embedded.meta.warnings)).toContain('ambiguous_zip5')

    answerWith(AUBURN_ONE_LINE, [gwinnett])
    const body = await simpleLookup(geocoded, path('/v1/tax/ga', { address: AUBURN_STREET }))
    expect(askedFor()).toEqual([AUBURN_ONE_LINE])
    expect(body.rate).toMatchObject({ county: 'GWINNETT', city: '', combined_rate: '0.06000' })
    expect(body.meta).toMatchObject({ resolved_via: 'census_geocoder', confidence: 'medium' }) // GA districts unplaced
    expect(warningCodes(body.meta.warnings)).not.toContain('ambiguous_zip5')

    answerWith(AUBURN_ONE_LINE, [auburn])
    const inAuburn = await simpleLookup(geocoded, path('/v1/tax/ga', { address: AUBURN_STREET }))
    expect(inAuburn.rate).toMatchObject({ county: 'BARROW', city: 'AUBURN', combined_rate: '0.08000' })
    expect(inAuburn.meta.resolved_via).toBe('census_geocoder')
  })

  it('in the portability rates and the TaxJar route too', async () => {
    answerWith(AUBURN_ONE_LINE, [gwinnett])
    const native = NativeRatesBody.parse(await ok(geocoded, path('/v1/portability/rates', { street: '100 Main St', state: 'GA', zip: '30011' })))
    expect(native).toMatchObject({ county: 'GWINNETT', resolved_via: 'census_geocoder', rates: { combined: '0.06000' } })
    const taxjar = await ok(geocoded, path('/taxjar/v2/rates/30011', { street: '100 Main St', state: 'GA' }))
    expect(taxjar.rate).toMatchObject({ county: 'GWINNETT', combined_rate: '0.06000' })
    expect(askedFor()).toEqual([AUBURN_ONE_LINE, AUBURN_ONE_LINE])
  })

  it("falls back to the ZIP's highest-weight candidate, with a warning, when none has the geocoder's county and place", async () => {
    // The point lies in the East Los Angeles CDP (no incorporated place); the ZIP's only candidate is the city of Los Angeles.
    const body = await simpleLookup(geocoded, path('/v1/tax/ca', { address: '4801 E 3rd St, Los Angeles, CA 90022' }))
    expect(body.rate).toMatchObject({ zip: '90022', city: 'LOS ANGELES' })
    expect(body.meta).toMatchObject({ resolved_via: 'census_geocoder', confidence: 'medium' })
    expect(warningOf(body.meta.warnings, 'geocoder_place_unmatched')).toMatchObject({ county_fips: '06037', place_geoid: null })
  })
})

describe('no usable match: the embedded resolution answers, with a warning', () => {
  it('the geocoder found nothing', async () => {
    const address = '55 Trinity Ave SW, Atlanta, GA 30303'
    const body = await simpleLookup(geocoded, path('/v1/tax/ga', { address }))
    expect(askedFor()).toEqual(['55 TRINITY AVE SW, ATLANTA, GA 30303'])
    const embedded = await simpleLookup(unset, path('/v1/tax/ga', { address }))
    expect(body.rate).toEqual(embedded.rate)
    expect(body.meta.resolved_via).toBe('address_locator')
    expect(warningOf(body.meta.warnings, 'geocoder_no_match')).toMatchObject({ geocoder_input: '55 TRINITY AVE SW, ATLANTA, GA 30303' })
  })

  it('its match lies in another state than the address', async () => {
    answerWith('55 TRINITY AVE SW, ATLANTA, GA 30303', CENSUS_MATCHES['400 BROAD ST, SEATTLE, WA 98109']!)
    const body = await simpleLookup(geocoded, path('/v1/tax/ga', { address: '55 Trinity Ave SW, Atlanta, GA 30303' }))
    expect(body.rate).toMatchObject({ state: 'GA', zip: '30303' })
    expect(body.meta.resolved_via).toBe('address_locator')
    expect(warningOf(body.meta.warnings, 'geocoder_no_match').message).toContain('lies in WA, not GA')
  })
})

describe('a geocoder that cannot answer', () => {
  it('unreachable: 503 GEOCODER_UNAVAILABLE with Retry-After, on every route that geocodes a street', async () => {
    expect(ERROR_STATUS.GEOCODER_UNAVAILABLE).toBe(503)
    for (const url of [
      path('/v1/tax/wa', { address: '400 Broad St, Seattle, WA 98109' }),
      path('/v1/portability/rates', { street: '400 Broad St', city: 'Seattle', state: 'WA', zip: '98109' }),
    ]) {
      const response = await unreachable.get(url)
      expect(response.status, url).toBe(503)
      expect(response.headers.get('retry-after')).toBe('30')
      const { error } = ErrorBody.parse(response.body)
      expect(error).toMatchObject({ code: 'GEOCODER_UNAVAILABLE', retry_after_seconds: 30 })
      expect(error.message).toContain('unreachable')
    }
    const taxjar = await unreachable.get(path('/taxjar/v2/rates/98109', { street: '400 Broad St', city: 'Seattle' }))
    expect(taxjar.status).toBe(503)
    expect(taxjar.headers.get('retry-after')).toBe('30')
    expect(taxjar.body).toMatchObject({ error: 'Service Unavailable', status: 503 })
  })

  it("failing upstream: its own Retry-After is passed on, and the refused lookup is not counted", async () => {
    fake.behavior = { kind: 'status', status: 503, retryAfter: '120' }
    const { api_key: key } = await geocoded.server.createAccount('starter')
    const response = await geocoded.get(path('/v1/tax/wa', { address: '400 Broad St, Seattle, WA 98109' }), key)
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('120')
    expect(response.body.error.code).toBe('GEOCODER_UNAVAILABLE')
    const account = await (await fetch(`${geocoded.server.url}/v1/account`, { headers: { 'X-API-Key': key } })).json()
    expect(account.quota.used).toBe(0)
  })

  it('is not needed for a ZIP, a place or coordinates: those never ask it', async () => {
    await ok(unreachable, '/v1/tax/wa?zip=98109')
    await ok(unreachable, '/v1/portability/rates?lat=47.62&lng=-122.349')
    await ok(unreachable, '/v1/portability/rates?city=Seattle&state=WA')
    await ok(geocoded, '/taxjar/v2/rates/98109')
    expect(fake.requests).toEqual([])
  })
})

describe('without TAXATLAS_GEOCODER_URL', () => {
  it('the geocoder is never asked, and addresses resolve from the snapshot', async () => {
    const body = await simpleLookup(unset, path('/v1/tax/wa', { address: '400 Broad St, Seattle, WA 98109' }))
    expect(body.meta.resolved_via).toBe('address_locator')
    await ok(unset, path('/v1/portability/rates', { street: '400 Broad St', city: 'Seattle', state: 'WA', zip: '98109' }))
    await ok(unset, path('/taxjar/v2/rates/98109', { street: '400 Broad St' }))
    expect(fake.requests).toEqual([])
  })
})

describe('OpenAPI', () => {
  it('documents census_geocoder and GEOCODER_UNAVAILABLE on the routes that geocode', async () => {
    const document = (await ok(unset, '/openapi.json')) as any
    for (const [route, method] of [['/v1/tax/{state}', 'get'], ['/v1/portability/rates', 'get'], ['/taxjar/v2/rates/{zip}', 'get']] as const) {
      const responses = document.paths[route][method].responses
      expect(responses['503'].description, route).toMatch(/geocoder/i)
      expect(responses['503'].headers['Retry-After'], route).toBeDefined()
    }
    expect(JSON.stringify(document)).toContain('census_geocoder')
  })
})
