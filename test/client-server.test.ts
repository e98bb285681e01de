// The typed client against a real server (port 0, real snapshot of GA, CT, DE and MA, real
// DuckDB store): the lookup in all four input modes and both shapes, history and strict mode, the
// error classes the server's refusals become, the rate limit honoured through Retry-After, and
// every portability, account, freshness and health method. Each answer equals the raw JSON the
// server sent, so nothing is dropped or renamed on the way.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  AuthenticationError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ValidationError,
  type OrderInput,
  type TaxatlasClientOptions,
} from '../client/index.ts'
import { API_ROUTES } from '../server/routes/index.ts'
import { recordingClient, rejection } from './support/client-recording.ts'
import { gaOrder, startPortabilityServer, TODAY, type PortabilityServer } from './support/portability-server.ts'

let server: PortabilityServer
let key: string

beforeAll(async () => {
  // starter: two lookups a month (for 402); growth: one request, then one every 2 s (for 429, on a clock that does not move)
  const tiers = { starter: { lookup_quota: 2 }, growth: { rate_per_second: 0.5, burst: 1 } }
  server = await startPortabilityServer(inject('mirrorUrl'), { TAXATLAS_TIERS: JSON.stringify(tiers) })
  key = (await server.createAccount('enterprise', 'client tests')).api_key
})
afterAll(() => server?.dispose())

/** A client with the enterprise key, counting its calls and recording its waits (no real sleeping). */
const clientOf = (options: Partial<TaxatlasClientOptions> = {}) => recordingClient(server.url, { apiKey: key, ...options })

async function raw(path: string) {
  const response = await fetch(`${server.url}${path}`, { headers: { 'X-API-Key': key } })
  expect(response.status, path).toBe(200)
  return response.json()
}

describe('tax(state, params)', () => {
  const modes = [
    { name: 'ZIP', params: { zip: '30303' }, query: 'zip=30303', via: 'zip5' },
    { name: 'address', params: { address: '55 Trinity Ave SW, Atlanta, GA 30303' }, query: `address=${encodeURIComponent('55 Trinity Ave SW, Atlanta, GA 30303')}`, via: 'address_locator' },
    { name: 'place', params: { location: 'Atlanta, GA' }, query: `location=${encodeURIComponent('Atlanta, GA')}`, via: 'place_gazetteer' },
    { name: 'coordinates', params: { lat: 33.749, lng: -84.388 }, query: 'lat=33.749&lng=-84.388', via: 'coordinates' },
  ] as const

  for (const { name, params, query, via } of modes) {
    it(`${name} mode, simple shape: the server's answer, every field kept`, async () => {
      const { client } = clientOf()
      const answer = await client.tax('ga', params)
      expect(answer).toEqual(await raw(`/v1/tax/ga?${query}`))
      expect(answer.rate.state).toBe('GA')
      expect(answer.rate.combined_rate).toMatch(/^\d\.\d{5}$/)
      expect(answer.meta.resolved_via).toBe(via)
    })

    it(`${name} mode, full shape`, async () => {
      const { client } = clientOf()
      const answer = await client.tax('ga', { ...params, mode: 'full' })
      const expected = await raw(`/v1/tax/ga?${query}&mode=full`)
      // billing.quota.used counts this lookup; the raw call above made one more
      expect({ ...answer, billing: undefined }).toEqual({ ...expected, billing: undefined })
      expect(answer.billing).toMatchObject({ tier: 'enterprise', lookup_counted: true })
      expect(answer.rows.map((row) => row.level)).toContain('state')
      expect(answer.resolved_place.state).toBe('GA')
      expect(answer.ambiguous_zip5.candidates.length).toBeGreaterThan(0)
    })
  }

  it('as_of and period answer from the history the snapshot holds', async () => {
    const { client } = clientOf()
    expect(await client.tax('ga', { zip: '30303', as_of: '2022-06-01' })).toEqual(await raw('/v1/tax/ga?zip=30303&as_of=2022-06-01'))
    expect(await client.tax('ga', { zip: '30303', as_of: new Date('2022-06-01T12:00:00Z') })).toEqual(await raw('/v1/tax/ga?zip=30303&as_of=2022-06-01'))
    expect(await client.tax('ga', { zip: '30303', period: '2026Q1' })).toEqual(await raw('/v1/tax/ga?zip=30303&period=2026Q1'))
  })

  it('a wrong path state is repaired and disclosed; strict mode refuses it as ValidationError with a correction', async () => {
    const { client, calls } = clientOf()
    const repaired = await client.tax('ct', { zip: '30303' })
    expect(repaired.rate.state).toBe('GA')
    expect(repaired.meta.normalization?.applied.map((a) => a.rule_id)).toContain('state_derived_from_zip')

    const error = await rejection(client.tax('ct', { zip: '30303', strict: true }))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ status: 400, code: 'INVALID_INPUT' })
    expect(error.body.error.correction).toMatchObject({ rule_id: 'state_derived_from_zip', suggested: 'GA' })
    expect(error.supportReference).toBe(error.body.error.support_reference)
    expect(calls()).toBe(2)
  })

  it('an unknown ZIP is NotFoundError (never 0%), not retried', async () => {
    const { client, calls } = clientOf()
    const error = await rejection(client.tax('ga', { zip: '39999' }))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    expect(error.supportReference).toMatch(/\S/)
    expect(calls()).toBe(1)
  })

  it('coordinates out of range are ValidationError with the detail list (422)', async () => {
    const { client, calls } = clientOf()
    const error = await rejection(client.tax('ga', { lat: 100, lng: -84 }))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' })
    expect(error.detail[0].loc).toEqual(['query', 'lat'])
    expect(calls()).toBe(1)
  })
})

describe('authentication', () => {
  it("the key works in X-API-Key and as Bearer", async () => {
    expect((await clientOf().client.account()).tier).toBe('enterprise')
    expect((await clientOf({ authHeader: 'bearer' }).client.account()).tier).toBe('enterprise')
  })

  it('an unknown key is AuthenticationError UNAUTHORIZED, not retried', async () => {
    const { client, calls } = clientOf({ apiKey: 'not-a-key' })
    const error = await rejection(client.tax('ga', { zip: '30303' }))
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: 'Invalid X-API-Key.' })
    expect(calls()).toBe(1)
  })

  it('no key: public endpoints answer, key endpoints refuse', async () => {
    const { client } = clientOf({ apiKey: undefined })
    expect((await client.health()).status).toBe('ok')
    await expect(client.account()).rejects.toBeInstanceOf(AuthenticationError)
  })
})

describe('plan limits', () => {
  it('a used-up quota is PaymentRequiredError QUOTA_EXCEEDED, not retried', async () => {
    const { api_key } = await server.createAccount('starter', 'two lookups')
    const { client, calls } = clientOf({ apiKey: api_key })
    await client.tax('ga', { zip: '30303' })
    await client.tax('ga', { zip: '30303' })
    const error = await rejection(client.tax('ga', { zip: '30303' }))
    expect(error).toBeInstanceOf(PaymentRequiredError)
    expect(error).toMatchObject({ status: 402, code: 'QUOTA_EXCEEDED' })
    expect(calls()).toBe(3)
  })

  it("the rate limit's 429 is retried after Retry-After, then RateLimitError with retryAfter", async () => {
    const { api_key } = await server.createAccount('growth', 'one request')
    const { client, calls, waits } = clientOf({ apiKey: api_key })
    await client.account()
    const error = await rejection(client.account())
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 2 })
    expect(calls()).toBe(5)
    expect(waits).toEqual([2, 2, 2])
  })
})

describe('public endpoints', () => {
  it('health()', async () => {
    const answer = await clientOf().client.health()
    expect(answer).toEqual(await raw('/healthz'))
    expect(answer.status).toBe('ok')
  })

  it('freshness()', async () => {
    const answer = await clientOf().client.freshness()
    expect(answer).toEqual(await raw('/v1/freshness'))
    expect(answer.states.map((s) => s.code)).toEqual(expect.arrayContaining(['ga', 'ct', 'de', 'ma']))
  })
})

describe('account()', () => {
  it("the key's account, plan and quota", async () => {
    const answer = await clientOf().client.account()
    expect(answer).toEqual(await raw('/v1/account'))
    expect(answer).toMatchObject({ tier: 'enterprise', quota: { limit: null }, trial_expired: false })
  })
})

describe('portability', () => {
  it('createOrder() records an order once: a retry or a re-send answers unchanged', async () => {
    const { client } = clientOf()
    const order = gaOrder('client-o-1', { to_city: 'Atlanta' })
    const created = await client.createOrder(order)
    expect(created).toMatchObject({ result: 'created', order: { transaction_id: 'client-o-1', to_state: 'GA', amount: '19.99', source: 'api' } })
    expect(await client.createOrder(order)).toMatchObject({ result: 'unchanged' })
    expect(await client.createOrder({ ...order, amount: '29.99' })).toMatchObject({ result: 'updated', order: { amount: '29.99' } })
    expect((await client.getOrder('client-o-1')).order).toMatchObject({ transaction_id: 'client-o-1', amount: '29.99' })
  })

  it('createOrder() refusals are ValidationError with the detail of each field', async () => {
    const error = await rejection(clientOf().client.createOrder(gaOrder('client-bad', { to_zip: '06103' })))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.status).toBe(422)
    expect(error.detail.some((d: { loc: unknown[] }) => d.loc.includes('to_zip'))).toBe(true)
  })

  it('getOrder() of an unknown transaction is NotFoundError', async () => {
    await expect(clientOf().client.getOrder('no-such-order')).rejects.toBeInstanceOf(NotFoundError)
  })

  it('backfill() sends an array as JSON', async () => {
    const rows: OrderInput[] = [gaOrder('client-b-1'), gaOrder('client-b-2'), { ...gaOrder('client-b-3'), transaction_date: '2019-01-01' }]
    const report = await clientOf().client.backfill(rows)
    expect(report).toMatchObject({ format: 'json', received: 3, accepted: 2, rejected: 1 })
    expect(report.rejected_rows[0].transaction_id).toBe('client-b-3')
  })

  it('backfill() streams an async iterable as NDJSON; a re-run adds nothing', async () => {
    async function* history() {
      for (let i = 0; i < 2_000; i++) yield gaOrder(`client-s-${i}`, { transaction_date: `2026-0${1 + (i % 9)}-15`, amount: '10.00', shipping: '0', sales_tax: '0.89' })
    }
    const { client } = clientOf()
    expect(await client.backfill(history())).toMatchObject({ format: 'ndjson', received: 2_000, accepted: 2_000, duplicate: 0, rejected: 0 })
    expect(await client.backfill(history())).toMatchObject({ format: 'ndjson', received: 2_000, accepted: 0, duplicate: 2_000 })
  })

  it('setNexus() replaces the registration list, nexus() reads it, nexusHealth() reports against it', async () => {
    const { client } = clientOf()
    const set = await client.setNexus([{ state: 'GA', registered_since: '2025-01-01' }, { state: 'Massachusetts' }])
    expect(set.regions.map((r) => [r.state, r.registered_since])).toEqual([
      ['GA', '2025-01-01'],
      ['MA', null],
    ])
    expect(await client.nexus()).toEqual(set)

    const health = await client.nexusHealth({ band: 0.1 })
    expect(health).toEqual(await raw('/v1/portability/nexus/health?band=0.1'))
    expect(health.as_of).toBe(TODAY)
    expect(health.band).toBe('0.1')
    const ga = health.states.find((s) => s.state === 'GA')!
    expect(ga).toMatchObject({ registered: true, registered_since: '2025-01-01' })
    expect(Number(ga.order_total)).toBeGreaterThan(0)

    const error = await rejection(client.setNexus([{ state: 'XX' }]))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.detail[0].loc).toEqual(['body', 'regions', 0, 'state'])
  })

  it('orderTax() answers the tax of an order; a refused one is ValidationError naming the field', async () => {
    const { client } = clientOf()
    const order = { to_zip: '30303', to_state: 'GA', shipping: '1.50', nexus_addresses: [{ state: 'GA' }], line_items: [{ id: '1', quantity: 2, unit_price: '10.00' }] }
    const response = await fetch(`${server.url}/v1/portability/taxes`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(order) })
    const answer = await client.orderTax(order)
    expect(answer).toEqual(await response.json())
    expect(answer).toMatchObject({ amount: '20.00', shipping: '1.50', has_nexus: true, tax_source: 'destination', location: { zip: '30303', state: 'GA' } })
    expect(answer.amount_to_collect).toMatch(/^\d+\.\d{2}$/)
    const error = await rejection(client.orderTax({ ...order, line_items: [{ id: '1', quantity: -1, unit_price: '10.00' }] }))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.detail[0].loc).toEqual(['body', 'line_items', 0, 'quantity'])
  })

  it('salesTaxReturn() and salesTaxReturnCsv() answer what the route answers; a bad period is ValidationError naming the field', async () => {
    const { client } = clientOf()
    await client.createOrder(gaOrder('client-r-1', { transaction_date: '2026-10-02', amount: '40.00', sales_tax: '3.56' }))
    const answer = await client.salesTaxReturn({ state: 'GA', from: '2026-10-01', to: new Date('2026-12-31T12:00:00Z') })
    expect(answer).toEqual(await raw('/v1/portability/returns?state=GA&from=2026-10-01&to=2026-12-31'))
    expect(answer.totals.transactions).toBeGreaterThan(0)
    const csv = await client.salesTaxReturnCsv({ state: 'GA', from: '2026-10-01', to: '2026-12-31' })
    const file = await fetch(`${server.url}/v1/portability/returns?state=GA&from=2026-10-01&to=2026-12-31&format=csv`, { headers: { 'X-API-Key': key } })
    expect(csv).toBe(await file.text())
    const error = await rejection(client.salesTaxReturn({ state: 'GA', from: '2026-12-31', to: '2026-10-01' }))
    expect(error).toBeInstanceOf(ValidationError)
    expect(error.detail[0].loc).toEqual(['query', 'to'])
  })

  it("changes({ impact: true }) gives each change the account's exposure", async () => {
    const { client } = clientOf()
    const page = await client.changes({ states: ['GA'], impact: true, limit: 5 })
    expect(page).toEqual(await raw('/v1/changes?states=GA&impact=true&limit=5'))
    expect(page.changes.every((change) => change.impact?.window.to === TODAY)).toBe(true)
    expect((await client.changes({ states: ['GA'], limit: 5 })).changes.every((change) => change.impact === undefined)).toBe(true)
  })

  const ratesRoute = API_ROUTES.some((route) => route.path === '/v1/portability/rates')
  it.runIf(ratesRoute)('portabilityRates() in each format', async () => {
    const { client } = clientOf()
    for (const format of ['native', 'taxjar', 'avalara'] as const) {
      const answer = await client.portabilityRates({ zip: '30303', format })
      expect(answer).toEqual(await raw(`/v1/portability/rates?zip=30303&format=${format}`))
    }
  })
})
