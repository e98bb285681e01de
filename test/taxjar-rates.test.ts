// TaxJar's GET /v2/rates/:zip under /taxjar/v2, called by the official `taxjar` client, unchanged,
// against a real server on port 0 with the real all-states snapshot: ratesForLocation answers our
// rates as TaxJar's rate object, and its errors raise the client's TaxjarError.
import Taxjar from 'taxjar'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SimpleLookupBody } from '../server/lookup/tax-response.ts'
import { TaxjarErrorBody } from '../server/taxjar/taxjar-error.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { lookupArtifacts } from './support/lookup-snapshots.ts'
import { taxjarError } from './support/taxjar-error.ts'

let lookup: LookupServer
let client: Taxjar

beforeAll(async () => {
  lookup = await startLookupServer(await lookupArtifacts(inject('mirrorUrl')))
  client = new Taxjar({ apiKey: lookup.key, apiUrl: `${lookup.server.url}/taxjar` })
})
afterAll(() => lookup?.close())

async function taxRate(state: string, query: string) {
  const response = await lookup.get(`/v1/tax/${state}?${query}`)
  expect(response.status).toBe(200)
  return SimpleLookupBody.parse(response.body).rate
}

describe('ratesForLocation', () => {
  it("answers our rates as TaxJar's rate object, equal to /v1/tax's", async () => {
    const { rate } = await client.ratesForLocation('30303')
    expect(rate).toEqual(await taxRate('ga', 'zip=30303'))
    expect(rate).toMatchObject({ zip: '30303', state: 'GA', county: 'FULTON', city: 'ATLANTA', combined_rate: '0.08900', country: 'US' })
  })

  it('takes a ZIP+4 and the city, state, street and country a TaxJar integration sends', async () => {
    const { rate } = await client.ratesForLocation('90404-3370', { street: '1437 4th St', city: 'Santa Monica', state: 'CA', country: 'US' })
    expect(rate).toEqual(await taxRate('ca', 'zip=90404'))
    expect((await client.ratesForLocation('30303', { street: 'false', state: 'GA' })).rate).toEqual(await taxRate('ga', 'zip=30303'))
  })

  it("serves the ZIP's state when the state sent disagrees, as TaxJar does", async () => {
    expect((await client.ratesForLocation('30303', { state: 'CT' })).rate.state).toBe('GA')
  })

  it('an unknown ZIP raises TaxjarError 404 (never a 0% answer)', async () => {
    const error = await taxjarError(client.ratesForLocation('00000'))
    expect(error).toMatchObject({ status: 404, error: 'Not Found' })
    expect(error.detail).toContain('ZIP 00000 is not known')
  })

  it('a malformed ZIP, or a country other than the US, raises TaxjarError 400', async () => {
    expect(await taxjarError(client.ratesForLocation('303'))).toMatchObject({ status: 400, error: 'Bad Request' })
    expect(await taxjarError(client.ratesForLocation('abcde'))).toMatchObject({ status: 400 })
    const canada = await taxjarError(client.ratesForLocation('30303', { country: 'CA' }))
    expect(canada).toMatchObject({ status: 400 })
    expect(canada.detail).toContain('Only US rates')
  })

  it("errors are TaxJar's JSON shape, and a missing key is TaxJar's 401", async () => {
    const response = await fetch(`${lookup.server.url}/taxjar/v2/rates/00000`, { headers: { Authorization: `Bearer ${lookup.key}` } })
    expect(response.status).toBe(404)
    expect(TaxjarErrorBody.strict().parse(await response.json())).toMatchObject({ error: 'Not Found', status: 404 })
    const unauthorized = await taxjarError(new Taxjar({ apiKey: 'not-a-key', apiUrl: `${lookup.server.url}/taxjar` }).ratesForLocation('30303'))
    expect(unauthorized.status).toBe(401)
  })
})
