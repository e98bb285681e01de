// POST /v1/portability/orders against a real server (port 0, real DuckDB file, real snapshot):
// create, replay and update, refunds, the ZIP/state check, exact money, lenient input, and
// account isolation.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { gaOrder, startPortabilityServer, type PortabilityServer } from './support/portability-server.ts'

let server: PortabilityServer
let key: string
let otherKey: string

beforeAll(async () => {
  server = await startPortabilityServer(inject('mirrorUrl'))
  key = (await server.createAccount('enterprise', 'orders A')).api_key
  otherKey = (await server.createAccount('enterprise', 'orders B')).api_key
})
afterAll(() => server?.dispose())

const post = (body: unknown, as = key) => server.call(as, 'POST', '/v1/portability/orders', body)
const show = (id: string, query = '', as = key) => server.call(as, 'GET', `/v1/portability/orders/${id}${query}`)
const gaHealth = async (as = key) => (await server.call(as, 'GET', '/v1/portability/nexus/health')).body.states.find((s: { state: string }) => s.state === 'GA')

describe('POST /v1/portability/orders', () => {
  it('stores an order and echoes it with money as exact decimal strings', async () => {
    const created = await post(gaOrder('o-create', { to_city: 'Atlanta', customer_id: 'c-1', line_items: [{ id: '1', quantity: 2, unit_price: '9.99', sales_tax: '1.60', description: 'Mug' }] }))
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      result: 'created',
      order: {
        transaction_id: 'o-create',
        provider: 'api',
        kind: 'order',
        transaction_date: '2026-10-01T00:00:00.000Z',
        to_country: 'US',
        to_zip: '30303',
        to_state: 'GA',
        to_city: 'Atlanta',
        amount: '19.99',
        shipping: '0.01',
        sales_tax: '1.60',
        customer_id: 'c-1',
        marketplace: false,
        source: 'api',
        line_items: [{ id: '1', quantity: '2.00', unit_price: '9.99', discount: '0.00', sales_tax: '1.60', description: 'Mug' }],
      },
    })
    expect((await show('o-create')).body.order).toEqual(created.body.order)
  })

  it('replays an identical order as unchanged and replaces a changed one', async () => {
    expect((await post(gaOrder('o-replay'))).status).toBe(201)
    const replay = await post(gaOrder('o-replay'))
    expect(replay.status).toBe(200)
    expect(replay.body.result).toBe('unchanged')
    const changed = await post(gaOrder('o-replay', { amount: '25.00' }))
    expect(changed.status).toBe(200)
    expect(changed.body.result).toBe('updated')
    expect((await show('o-replay')).body.order.amount).toBe('25.00')
    expect(changed.body.order.created_at).toBe(replay.body.order.created_at)
    // Another provider is another transaction.
    expect((await post(gaOrder('o-replay', { provider: 'shopify' }))).body.result).toBe('created')
  })

  it('keeps money exact: sums of decimals never drift', async () => {
    const before = await gaHealth(otherKey)
    for (let i = 0; i < 10; i++) expect((await post(gaOrder(`o-cents-${i}`, { amount: '0.10', shipping: '0', sales_tax: '0' }), otherKey)).status).toBe(201)
    await post(gaOrder('o-cents-x', { amount: 0.2, shipping: 0, sales_tax: 0 }), otherKey)
    await post(gaOrder('o-cents-y', { amount: '19.99' }), otherKey)
    await post(gaOrder('o-cents-z', { amount: '0.01' }), otherKey)
    const after = await gaHealth(otherKey)
    expect(before.order_total).toBe('0.00')
    // 10 × 0.10 + 0.2 + 19.99 + 0.01 (a float sum would give 21.199999999999996)
    expect(after.order_total).toBe('21.20')
    expect(after.transaction_count).toBe(13)
  })

  it('records refunds, by kind or by a negative amount, and subtracts them from the total', async () => {
    const base = await gaHealth()
    const order = await post(gaOrder('o-refunded', { amount: '100.00' }))
    expect(order.status).toBe(201)
    const byKind = await post(gaOrder('r-1', { kind: 'refund', amount: '30.00', transaction_reference_id: 'o-refunded' }))
    expect(byKind.status).toBe(201)
    expect(byKind.body.order).toMatchObject({ kind: 'refund', amount: '-30.00', shipping: '-0.01', sales_tax: '-1.60', transaction_reference_id: 'o-refunded' })
    const bySign = await post(gaOrder('r-2', { amount: '-20.00', shipping: '0', sales_tax: '0' }))
    expect(bySign.body.order).toMatchObject({ kind: 'refund', amount: '-20.00' })
    // A refund may share its id with an order: kind is part of the key.
    expect((await post(gaOrder('o-refunded', { kind: 'refund', amount: '1.00' }))).body.result).toBe('created')
    expect((await show('o-refunded', '?kind=refund')).body.order.amount).toBe('-1.00')

    const after = await gaHealth()
    const cents = (text: string) => Math.round(Number(text) * 100)
    expect(cents(after.order_total) - cents(base.order_total)).toBe(10_000 - 3_000 - 2_000 - 100)
    // Refunds do not add to the transaction count.
    expect(after.transaction_count - base.transaction_count).toBe(1)
  })

  it('refuses a ZIP that is not used within to_state, saying which state it belongs to', async () => {
    const wrong = await post(gaOrder('o-wrong-state', { to_state: 'CT' }))
    expect(wrong.status).toBe(422)
    expect(wrong.body.error.code).toBe('VALIDATION_ERROR')
    expect(wrong.body.detail).toEqual([
      { loc: ['body', 'to_zip'], msg: 'to_zip 30303 is not used within to_state CT; it belongs to GA', type: 'zip_state_mismatch', input: '30303' },
    ])
    const unknown = await post(gaOrder('o-unknown-zip', { to_zip: '30000' }))
    expect(unknown.status).toBe(422)
    expect(unknown.body.detail[0].msg).toBe('to_zip 30000 is not a known ZIP code')
    expect((await show('o-wrong-state')).status).toBe(404)
  })

  it('accepts what platforms send: numeric strings, numbers, ZIP+4, state names, false for a street, extra keys', async () => {
    const lenient = await post({
      transaction_id: 1234,
      transaction_date: '2026-10-02T18:30:00-05:00',
      to_country: 'usa',
      to_zip: 6103,
      to_state: 'connecticut',
      to_street: false,
      amount: '999.00',
      shipping: 5,
      sales_tax: '63.44',
      plugin: 'woo',
      line_items: [{ quantity: '1', unit_price: '994.00', discount: 0 }],
    })
    expect(lenient.status).toBe(201)
    expect(lenient.body.order).toMatchObject({
      transaction_id: '1234',
      transaction_date: '2026-10-02T23:30:00.000Z',
      to_zip: '06103',
      to_state: 'CT',
      to_street: null,
      amount: '999.00',
      shipping: '5.00',
    })
    expect((await post(gaOrder('o-zip4', { to_zip: '30303-1234' }))).body.order.to_zip).toBe('30303')
  })

  it('reports every invalid field with its location', async () => {
    const bad = await post({ transaction_id: 'bad id!', transaction_date: '2026-02-30', to_zip: 'abc', to_state: 'XX', amount: '19.999999', exemption_type: 'wholesale', sales_tax: '1.00' })
    expect(bad.status).toBe(422)
    const byField = Object.fromEntries(bad.body.detail.map((d: { loc: string[]; msg: string }) => [d.loc.join('.'), d.msg]))
    expect(byField).toMatchObject({
      'body.transaction_id': expect.stringContaining('letters, digits'),
      'body.transaction_date': expect.stringContaining('not a calendar date'),
      'body.to_zip': expect.stringContaining('is not a ZIP code'),
      'body.to_state': 'XX is not a US state, DC or PR',
      'body.amount': 'amount: 19.999999 has more than 4 decimal places',
      'body.sales_tax': 'sales_tax must be 0 for an exemption_type of wholesale',
    })
    expect((await post('not json')).status).toBe(400)
    expect((await post({ transaction_id: 'x', amount: {} })).status).toBe(422)
  })

  it('never shows one account another account\'s transactions', async () => {
    expect((await post(gaOrder('o-private', { amount: '5000.00' }))).status).toBe(201)
    expect((await show('o-private', '', otherKey)).status).toBe(404)
    // The same id in the other account is its own transaction.
    expect((await post(gaOrder('o-private', { amount: '1.00' }), otherKey)).body.result).toBe('created')
    expect((await show('o-private')).body.order.amount).toBe('5000.00')
    expect((await show('o-private', '', otherKey)).body.order.amount).toBe('1.00')
  })

  it('needs an API key', async () => {
    const response = await fetch(`${server.url}/v1/portability/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(gaOrder('x')) })
    expect(response.status).toBe(401)
  })
})
