// GET /v1/portability/rates through a real server on port 0 with the real all-states snapshot:
// each input form answered as GET /v1/tax answers it, the exact shape of each format, sourcing by
// the state's rule for the seller sent, and the refusals of spec 4.2 (400, 401, 404, 422, 402).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import { parseRateFraction } from '../snapshot-contract/rate-units.ts'
import { ErrorBody, ValidationErrorBody } from '../server/base/errors.ts'
import { AvalaraRatesBody } from '../server/portability/rates-avalara.ts'
import { NativeRatesBody } from '../server/portability/rates-native.ts'
import { TaxjarRatesBody } from '../server/portability/rates-taxjar.ts'
import { simpleLookup, warningCodes } from './support/lookup-bodies.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { lookupArtifacts } from './support/lookup-snapshots.ts'

const TRIAL_QUOTA = 2

let lookup: LookupServer

beforeAll(async () => {
  const artifacts = await lookupArtifacts(inject('mirrorUrl'))
  lookup = await startLookupServer(artifacts, { TAXATLAS_TIERS: JSON.stringify({ trial: { lookup_quota: TRIAL_QUOTA } }) })
})
afterAll(() => lookup?.close())

const units = (rate: string | number): number => {
  const parsed = parseRateFraction(String(rate))
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.units
}

async function rates(query: string, key?: string) {
  const response = await lookup.get(`/v1/portability/rates?${query}`, key)
  expect(response.status, `${query}: ${JSON.stringify(response.body)}`).toBe(200)
  return response.body
}
const native = async (query: string) => NativeRatesBody.parse(await rates(query))
const taxjar = async (query: string) => TaxjarRatesBody.parse(await rates(`${query}&format=taxjar`))
const avalara = async (query: string) => AvalaraRatesBody.parse(await rates(`${query}&format=avalara`))

const taxRate = async (state: string, query: string) => (await simpleLookup(lookup, `/v1/tax/${state}?${query}`)).rate

async function refused(query: string, status: number, code: string, key?: string) {
  const response = await lookup.get(`/v1/portability/rates?${query}`, key)
  expect(response.status, `${query}: ${JSON.stringify(response.body)}`).toBe(status)
  expect(ErrorBody.parse(response.body).error.code).toBe(code)
  return response.body.error as Record<string, any>
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString()

describe('input forms, resolved as GET /v1/tax resolves them', () => {
  it('a freeform address', async () => {
    const answer = await native(q({ address: '55 Trinity Ave SW, Atlanta, GA 30303' }))
    expect(answer).toMatchObject({ zip: '30303', state: 'GA', county: 'FULTON', city: 'ATLANTA', resolved_via: 'address_locator' })
    expect(answer.rates.combined).toBe((await taxRate('ga', q({ address: '55 Trinity Ave SW, Atlanta, GA 30303' }))).combined_rate)
  })

  it('a decomposed address: street with city, state and zip; street with city and state; city with zip', async () => {
    const full = await native(q({ street: '55 Trinity Ave SW', city: 'Atlanta', state: 'GA', zip: '30303' }))
    expect(full).toMatchObject({ zip: '30303', city: 'ATLANTA', resolved_via: 'address_locator', rates: { combined: '0.08900' } })
    expect(full.normalization).toBeUndefined()
    const noZip = await native(q({ street: '55 Trinity Ave SW', city: 'Atlanta', state: 'GA' }))
    expect(noZip).toMatchObject({ state: 'GA', city: 'ATLANTA', resolved_via: 'place_gazetteer', rates: { combined: '0.08900' } })
    expect(await native(q({ city: 'Atlanta', zip: '30303' }))).toMatchObject({ city: 'ATLANTA', resolved_via: 'address_locator' })
  })

  it('a ZIP alone, with no state to repair or warn about', async () => {
    const answer = await native('zip=30303')
    expect(answer).toMatchObject({ zip: '30303', resolved_via: 'zip5', confidence: 'medium' }) // GA districts unplaced
    expect(answer.normalization).toBeUndefined()
    expect(answer.warnings.filter((w) => typeof w === 'string')).toEqual([])
  })

  it('a state sent with the ZIP is repaired and disclosed as in the tax route', async () => {
    const named = await native(q({ zip: '30303', state: 'Georgia' }))
    expect(named.normalization!.applied.map((a) => a.rule_id)).toEqual(['state_name_to_code'])
    const wrong = await native(q({ zip: '30303', state: 'CT' }))
    expect(wrong).toMatchObject({ state: 'GA', zip: '30303' })
    expect(wrong.normalization!.applied.map((a) => a.rule_id)).toEqual(['state_derived_from_zip'])
  })

  it('a place: city with state', async () => {
    expect(await native(q({ city: 'Atlanta', state: 'GA' }))).toMatchObject({ state: 'GA', city: 'ATLANTA', resolved_via: 'place_gazetteer' })
  })

  it('latitude and longitude under each accepted name, with no state_from_input note', async () => {
    const expected = await native('lat=33.749&lng=-84.388')
    expect(expected).toMatchObject({ state: 'GA', resolved_via: 'coordinates' })
    expect(warningCodes(expected.warnings)).not.toContain('state_from_input')
    for (const latitude of ['lat', 'latitude']) {
      for (const longitude of ['lng', 'longitude', 'lon', 'long']) {
        expect(await native(`${latitude}=33.749&${longitude}=-84.388`), `${latitude}/${longitude}`).toEqual(expected)
      }
    }
  })
})

describe('formats', () => {
  it('native (the default): the documented fields, rates that add up, components that add up to them', async () => {
    const answer = await native(q({ zip: '77002' }))
    expect(answer).toEqual(await native(q({ zip: '77002', format: 'native' })))
    expect(Object.keys(answer).sort()).toEqual(
      ['city', 'components', 'confidence', 'county', 'effective_date', 'effective_date_basis', 'freight_taxable', 'rates', 'resolved_via', 'sourcing', 'state', 'warnings', 'zip'].sort(),
    )
    const { state, county, city, district, combined } = answer.rates
    expect(units(state) + units(county) + units(city) + units(district)).toBe(units(combined))
    expect(answer.components.reduce((sum, row) => sum + units(row.rate), 0)).toBe(units(combined))
    expect(answer.sourcing).toEqual({ applied: 'destination', rule: 'origin', reason: expect.stringContaining('No seller') })
    expect(warningCodes(answer.warnings)).toContain('aggregator_estimate')
  })

  it("taxjar: exactly TaxJar's rate object, equal to /v1/tax's rate object for the same ZIP", async () => {
    for (const [state, zip] of [['ga', '30303'], ['ca', '90022'], ['tx', '77002'], ['pa', '19103'], ['de', '19901']]) {
      const body = await rates(`zip=${zip}&format=taxjar`)
      expect(Object.keys(body)).toEqual(['rate'])
      expect(Object.keys(body.rate)).toEqual([
        'zip', 'country', 'country_rate', 'state', 'state_rate', 'county', 'county_rate', 'city', 'city_rate', 'combined_district_rate', 'combined_rate', 'freight_taxable',
      ])
      expect(body.rate, zip).toEqual(await taxRate(state!, `zip=${zip}`))
    }
  })

  it('avalara: fractions as JSON numbers; totalRate is the combined rate and the sum of the rates', async () => {
    for (const zip of ['30303', '90022', '77002', '19103']) {
      const body = await rates(`zip=${zip}&format=avalara`)
      expect(Object.keys(body).sort()).toEqual(['rates', 'totalRate'])
      const answer = AvalaraRatesBody.parse(body)
      const { combined } = (await native(`zip=${zip}`)).rates
      expect(answer.totalRate).toBe(Number(combined))
      expect(units(answer.totalRate)).toBe(units(combined))
      expect(answer.rates.reduce((sum, r) => sum + units(r.rate), 0), zip).toBe(units(answer.totalRate))
      expect(answer.rates.find((r) => r.type === 'State')).toBeDefined()
    }
    expect((await avalara('zip=30303')).rates).toEqual([
      { rate: 0.04, name: 'Georgia', type: 'State' },
      { rate: 0.03, name: 'Fulton', type: 'County' },
      { rate: 0.019, name: 'Atlanta', type: 'City' },
    ])
  })

  it('an unknown format is a 400 listing the valid ones', async () => {
    const error = await refused('zip=30303&format=xml', 400, 'INVALID_INPUT')
    expect(error.valid_values).toEqual(['native', 'taxjar', 'avalara'])
    expect(error.message).toContain('native, taxjar, avalara')
  })
})

describe('sourcing', () => {
  // PA sources intrastate sales to the seller (origin); Philadelphia 8%, Pittsburgh 7%.
  const philadelphia = 'zip=19103'

  it("origin state, seller and buyer in it: the seller's location is answered, and said so", async () => {
    const destination = await native(philadelphia)
    const answer = await native(`${philadelphia}&seller_state=PA&seller_zip=15222`)
    expect(answer).toMatchObject({ zip: '15222', state: 'PA', county: 'ALLEGHENY' })
    expect(answer.rates.combined).toBe((await taxRate('pa', 'zip=15222')).combined_rate)
    expect(answer.rates.combined).not.toBe(destination.rates.combined)
    expect(answer.sourcing).toMatchObject({ applied: 'origin', rule: 'origin' })
    expect(answer.sourcing.reason).toMatch(/PA .*origin.*15222/)
    // seller_zip alone names the seller's state; the other formats answer the same location.
    expect(await native(`${philadelphia}&seller_zip=15222`)).toEqual(answer)
    expect((await taxjar(`${philadelphia}&seller_zip=15222`)).rate).toEqual(await taxRate('pa', 'zip=15222'))
    expect((await avalara(`${philadelphia}&seller_zip=15222`)).totalRate).toBe(Number(answer.rates.combined))
  })

  it('origin state, seller elsewhere: an interstate sale is answered at the destination', async () => {
    const answer = await native(`${philadelphia}&seller_state=GA&seller_zip=30303`)
    expect(answer).toMatchObject({ zip: '19103', sourcing: { applied: 'destination', rule: 'origin' } })
    expect(answer.sourcing.reason).toContain('Interstate sale (seller in GA, buyer in PA)')
    expect((await native(`${philadelphia}&seller_state=New Jersey`)).sourcing.applied).toBe('destination')
  })

  it('a destination state ignores an in-state seller', async () => {
    const answer = await native('zip=30303&seller_state=GA&seller_zip=31401')
    expect(answer).toMatchObject({ zip: '30303', rates: { combined: '0.08900' }, sourcing: { applied: 'destination', rule: 'destination' } })
  })

  it('a mixed state (CA) is answered at the destination with a warning saying how it splits', async () => {
    const answer = await native('zip=90022&seller_state=CA&seller_zip=94105')
    expect(answer).toMatchObject({ zip: '90022', sourcing: { applied: 'destination', rule: 'mixed' } })
    const mixed = answer.warnings.find((w) => typeof w === 'object' && w.code === 'mixed_sourcing') as { message: string; state: string }
    expect(mixed.state).toBe('CA')
    expect(mixed.message).toMatch(/district taxes follow the delivery location/)
  })

  it('refuses what cannot be sourced: no seller_zip in an origin state, a contradictory or unknown seller', async () => {
    expect((await refused(`${philadelphia}&seller_state=PA`, 400, 'INVALID_INPUT')).field).toBe('seller_zip')
    expect((await refused(`${philadelphia}&seller_state=TX&seller_zip=15222`, 400, 'INVALID_INPUT')).field).toBe('seller_state')
    expect((await refused(`${philadelphia}&seller_zip=00000`, 400, 'INVALID_INPUT')).field).toBe('seller_zip')
    expect((await refused(`${philadelphia}&seller_zip=1522`, 400, 'INVALID_INPUT')).field).toBe('seller_zip')
    expect((await refused(`${philadelphia}&seller_state=XX`, 400, 'INVALID_INPUT')).field).toBe('seller_state')
  })
})

describe('refusals', () => {
  it('400 for no input form or several, naming the parameters received and the forms', async () => {
    const none = await refused('format=taxjar', 400, 'INVALID_INPUT')
    expect(none.received).toEqual([])
    expect(Object.keys(none.forms)).toEqual(['address', 'street', 'zip', 'city', 'coordinates'])
    expect((await refused(q({ address: '1 Main St, Atlanta, GA 30303', street: '1 Main St' }), 400, 'INVALID_INPUT')).received).toEqual(['address', 'street'])
    expect((await refused('zip=30303&lat=33.7&lng=-84.3', 400, 'INVALID_INPUT')).received).toEqual(['zip', 'lat', 'lng'])
    expect((await refused('lat=33.7&latitude=33.7&lng=-84.3', 400, 'INVALID_INPUT')).received).toEqual(['lat', 'latitude'])
    expect((await refused('lat=33.7', 400, 'INVALID_INPUT')).message).toContain('longitude')
    expect((await refused(q({ street: '55 Trinity Ave SW' }), 400, 'INVALID_INPUT')).message).toContain('street alone')
    expect((await refused('state=GA', 400, 'INVALID_INPUT')).received).toEqual(['state'])
  })

  it('401 without a key', async () => {
    const response = await fetch(`${lookup.server.url}/v1/portability/rates?zip=30303`)
    expect(response.status).toBe(401)
    expect(ErrorBody.parse(await response.json()).error.code).toBe('UNAUTHORIZED')
  })

  it('404 when nothing resolves: an unknown ZIP (never 0%), an unknown place', async () => {
    expect((await refused('zip=00000', 404, 'NOT_FOUND')).zip).toBe('00000')
    await refused(q({ city: 'Nowhereville', state: 'GA' }), 404, 'NOT_FOUND')
  })

  it('422 with the validation detail for a malformed coordinate', async () => {
    const response = await lookup.get('/v1/portability/rates?lat=north&longitude=200')
    expect(response.status).toBe(422)
    const body = ValidationErrorBody.parse(response.body)
    expect(body.error.code).toBe('VALIDATION_ERROR')
    expect(body.detail.map((d) => d.loc)).toEqual([
      ['query', 'lat'],
      ['query', 'longitude'],
    ])
  })

  it('402 QUOTA_EXCEEDED once a trial has used its lookups; refusals are not counted', async () => {
    const { api_key: key } = await lookup.server.createAccount('trial')
    await refused('zip=00000', 404, 'NOT_FOUND', key)
    await refused('format=xml&zip=30303', 400, 'INVALID_INPUT', key)
    for (let i = 0; i < TRIAL_QUOTA; i++) await rates('zip=30303', key)
    expect((await refused('zip=30303', 402, 'QUOTA_EXCEEDED', key)).quota).toBe(TRIAL_QUOTA)
  })
})
