// One account can neither read nor change another's orders, refunds, backfilled history,
// registrations, returns or usage: account B knows (or guesses) every id account A used, and tries each
// route with it. Nothing of A may show, no attempt of B may change A, and B's totals and usage are
// B's alone. The existence of A's ids must not leak either (no "already recorded", no duplicate).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { gaOrder, startPortabilityServer, type PortabilityServer } from './support/portability-server.ts'

let server: PortabilityServer
let a: string
let b: string

const A_IDS = ['a-1', 'a-2', 'a-3', 'tj-a-1', 'bf-a-1', 'bf-a-2']
const GUESSES = [...A_IDS, ...Array.from({ length: 30 }, (_, i) => `a-${i}`), 'order-1', '1', 'undefined', '*', '%']

beforeAll(async () => {
  server = await startPortabilityServer(inject('mirrorUrl'))
  a = (await server.createAccount('enterprise', 'account a')).api_key
  b = (await server.createAccount('enterprise', 'account b')).api_key

  const call = server.call
  for (const id of ['a-1', 'a-2', 'a-3']) expect((await call(a, 'POST', '/v1/portability/orders', gaOrder(id, { amount: '1000.00' }))).status).toBe(201)
  expect((await call(a, 'POST', '/v1/portability/orders', gaOrder('a-1', { kind: 'refund', amount: '-100.00', sales_tax: '0' }))).status).toBe(201)
  expect((await call(a, 'POST', '/taxjar/v2/transactions/orders', gaOrder('tj-a-1', { provider: 'shopify', amount: '500.00' }))).status).toBe(201)
  const backfill = await call(a, 'POST', '/v1/portability/transactions/backfill', [gaOrder('bf-a-1', { to_zip: '06103', to_state: 'CT' }), gaOrder('bf-a-2', { to_zip: '06103', to_state: 'CT' })])
  expect(backfill.body.accepted).toBe(2)
  expect((await call(a, 'PUT', '/v1/portability/nexus', { regions: [{ state: 'GA', registered_since: '2025-01-01' }, { state: 'CT' }] })).status).toBe(200)
  for (let i = 0; i < 3; i++) expect((await call(a, 'GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
})
afterAll(async () => {
  await server?.dispose()
})

/** Everything of A that B must not be able to see or change. */
async function stateOf(key: string) {
  const get = async (path: string) => {
    const response = await server.call(key, 'GET', path)
    expect(response.status, path).toBe(200)
    return response.body
  }
  const orders = []
  for (const provider of ['api', 'shopify', 'taxjar']) {
    orders.push(await get(`/taxjar/v2/transactions/orders?provider=${provider}`), await get(`/taxjar/v2/transactions/refunds?provider=${provider}`))
  }
  return {
    orders,
    shown: [await get('/v1/portability/orders/a-1'), await get('/v1/portability/orders/a-1?kind=refund'), await get('/taxjar/v2/transactions/orders/tj-a-1?provider=shopify')],
    registrations: await get('/v1/portability/nexus'),
    regions: await get('/taxjar/v2/nexus/regions'),
    health: await get('/v1/portability/nexus/health'),
    returns: [await get('/v1/portability/returns?state=GA&from=2026-07-01&to=2026-12-31'), await get('/v1/portability/returns?state=CT&from=2026-07-01&to=2026-12-31')],
    used: (await get('/v1/account')).quota.used,
  }
}

describe('two accounts', () => {
  it('B cannot read A\'s orders, refunds or history, by any route, under any provider or kind', async () => {
    for (const id of GUESSES) {
      const encoded = encodeURIComponent(id)
      for (const path of [
        `/v1/portability/orders/${encoded}`,
        `/v1/portability/orders/${encoded}?kind=refund`,
        `/v1/portability/orders/${encoded}?provider=shopify`,
        `/taxjar/v2/transactions/orders/${encoded}`,
        `/taxjar/v2/transactions/orders/${encoded}?provider=shopify`,
        `/taxjar/v2/transactions/refunds/${encoded}`,
      ]) {
        const response = await server.call(b, 'GET', path)
        expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(404)
      }
    }
    for (const provider of ['api', 'shopify', 'taxjar']) {
      expect((await server.call(b, 'GET', `/taxjar/v2/transactions/orders?provider=${provider}`)).body).toEqual({ orders: [] })
      expect((await server.call(b, 'GET', `/taxjar/v2/transactions/refunds?provider=${provider}`)).body).toEqual({ refunds: [] })
    }
    expect((await server.call(b, 'GET', '/v1/portability/nexus')).body).toEqual({ regions: [] })
    expect((await server.call(b, 'GET', '/taxjar/v2/nexus/regions')).body).toEqual({ regions: [] })
    // A's sales are in A's returns, none in B's.
    const returnOf = async (key: string) => (await server.call(key, 'GET', '/v1/portability/returns?state=GA&from=2026-07-01&to=2026-12-31')).body.totals
    expect((await returnOf(a)).transactions).toBeGreaterThan(0)
    expect(await returnOf(b)).toMatchObject({ transactions: 0, gross_sales: '0.00', tax_collected: '0.00' })
  })

  it('B cannot update or delete A\'s records, and writing under A\'s ids makes B\'s own records without revealing A\'s', async () => {
    const before = await stateOf(a)
    for (const id of A_IDS) {
      for (const provider of ['api', 'shopify']) {
        expect((await server.call(b, 'PUT', `/taxjar/v2/transactions/orders/${id}`, { amount: '1.00', provider })).status, `PUT ${id}`).toBe(404)
        expect((await server.call(b, 'DELETE', `/taxjar/v2/transactions/orders/${id}?provider=${provider}`)).status, `DELETE ${id}`).toBe(404)
        expect((await server.call(b, 'DELETE', `/taxjar/v2/transactions/refunds/${id}?provider=${provider}`)).status, `DELETE refund ${id}`).toBe(404)
      }
    }
    // Creating under A's ids: new records of B's, never "already recorded" (a 422) nor "duplicate".
    expect((await server.call(b, 'POST', '/v1/portability/orders', gaOrder('a-1', { amount: '3.00' }))).body.result).toBe('created')
    expect((await server.call(b, 'POST', '/taxjar/v2/transactions/orders', gaOrder('tj-a-1', { provider: 'shopify', amount: '4.00' }))).status).toBe(201)
    const backfill = await server.call(b, 'POST', '/v1/portability/transactions/backfill', [gaOrder('bf-a-1', { amount: '5.00' }), gaOrder('a-2', { amount: '6.00' })])
    expect(backfill.body).toMatchObject({ accepted: 2, duplicate: 0 })
    expect((await server.call(b, 'PUT', '/v1/portability/nexus', { regions: [{ state: 'MA' }] })).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await server.call(b, 'GET', '/v1/tax/ct?zip=06103')).status).toBe(200)

    expect(await stateOf(a)).toEqual(before)
    expect((await server.call(a, 'GET', '/v1/portability/orders/a-1')).body.order.amount).toBe('1000.00')
  })

  it('B\'s nexus health and usage count B\'s data only', async () => {
    const health = (await server.call(b, 'GET', '/v1/portability/nexus/health')).body
    const ga = health.states.find((s: { state: string }) => s.state === 'GA')
    expect(ga).toMatchObject({ order_total: '18.00', transaction_count: 4, registered: false })
    for (const s of health.states.filter((s: { state: string }) => s.state !== 'GA')) expect(s, s.state).toMatchObject({ order_total: '0.00', transaction_count: 0 })
    expect(health.states.find((s: { state: string }) => s.state === 'MA')).toMatchObject({ registered: true })
    expect((await server.call(b, 'GET', '/v1/account')).body.quota.used).toBe(5)
    expect((await server.call(a, 'GET', '/v1/account')).body.quota.used).toBe(3)
    const aHealth = (await server.call(a, 'GET', '/v1/portability/nexus/health')).body
    expect(aHealth.states.find((s: { state: string }) => s.state === 'GA')).toMatchObject({ order_total: '3400.00', transaction_count: 4 })
    expect(aHealth.states.find((s: { state: string }) => s.state === 'CT')).toMatchObject({ order_total: '39.98', transaction_count: 2 })
  })
})
