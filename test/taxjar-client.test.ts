// The official `taxjar` npm client, unchanged, against our server: apiUrl is `<base URL>/taxjar`
// (the client appends /v2/). Orders, refunds and nexus regions work, and our errors raise its
// TaxjarError with our detail.
import Taxjar from 'taxjar'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { gaOrder, startPortabilityServer, type PortabilityServer } from './support/portability-server.ts'

let server: PortabilityServer
let client: Taxjar
let key: string

beforeAll(async () => {
  server = await startPortabilityServer(inject('mirrorUrl'))
  key = (await server.createAccount('enterprise', 'taxjar user')).api_key
  client = new Taxjar({ apiKey: key, apiUrl: `${server.url}/taxjar` })
})
afterAll(() => server?.dispose())

const order = (id: string, extra: Record<string, unknown> = {}) => ({
  transaction_id: id,
  transaction_date: '2026/05/14',
  to_country: 'US',
  to_zip: '30303',
  to_state: 'GA',
  to_city: 'Atlanta',
  to_street: '55 Trinity Ave SW',
  amount: 16.5,
  shipping: 1.5,
  sales_tax: 1.2,
  line_items: [{ id: '1', quantity: 1, product_identifier: '12-34243-9', description: 'Fuzzy Sweater', unit_price: 15, discount: 0, sales_tax: 1.2 }],
  ...extra,
})

async function taxjarError(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error as InstanceType<typeof Taxjar.Error>
  }
  throw new Error('expected a TaxjarError')
}

describe('the taxjar client', () => {
  it('creates, shows, lists, updates and deletes orders', async () => {
    const created = await client.createOrder(order('tj-1') as never)
    expect(created.order).toMatchObject({
      transaction_id: 'tj-1',
      user_id: expect.any(Number),
      transaction_date: '2026-05-14T00:00:00Z',
      provider: 'api',
      to_zip: '30303',
      to_state: 'GA',
      amount: '16.50',
      shipping: '1.50',
      sales_tax: '1.20',
      line_items: [{ id: '1', quantity: 1, unit_price: '15.00', discount: '0.00', sales_tax: '1.20', description: 'Fuzzy Sweater', product_identifier: '12-34243-9' }],
    })
    expect((await client.showOrder('tj-1')).order).toEqual(created.order)

    await client.createOrder(order('tj-2', { transaction_date: '2026-06-20T10:00:00Z' }) as never)
    expect((await client.listOrders({ from_transaction_date: '2026/05/01', to_transaction_date: '2026/05/31' })).orders).toEqual(['tj-1'])
    expect((await client.listOrders({ transaction_date: '2026/06/20' })).orders).toEqual(['tj-2'])
    expect((await client.listOrders({ from_transaction_date: '2026/01/01', to_transaction_date: '2026/12/31' })).orders).toEqual(['tj-1', 'tj-2'])

    const updated = await client.updateOrder({ transaction_id: 'tj-1', amount: 17, shipping: 2, line_items: [{ id: '1', quantity: 1, unit_price: 15, sales_tax: 1.2 }] } as never)
    expect(updated.order).toMatchObject({ transaction_id: 'tj-1', amount: '17.00', shipping: '2.00', to_city: 'Atlanta', sales_tax: '1.20' })

    const deleted = await client.deleteOrder('tj-2')
    expect(deleted.order).toMatchObject({ transaction_id: 'tj-2', provider: 'api', amount: null, to_zip: null, transaction_date: null, line_items: [] })
    expect((await client.listOrders({ from_transaction_date: '2026/01/01', to_transaction_date: '2026/12/31' })).orders).toEqual(['tj-1'])
  })

  it('creates refunds that reference their order and subtract from nexus totals', async () => {
    const refund = await client.createRefund({ ...order('tj-1-refund', { amount: -16.5, shipping: -1.5, sales_tax: -1.2 }), transaction_reference_id: 'tj-1', line_items: [] } as never)
    expect(refund.refund).toMatchObject({ transaction_id: 'tj-1-refund', transaction_reference_id: 'tj-1', amount: '-16.50', shipping: '-1.50' })
    expect((await client.showRefund('tj-1-refund')).refund.amount).toBe('-16.50')
    const missingReference = await taxjarError(client.createRefund(order('tj-refund-2') as never))
    expect(missingReference.status).toBe(422)
    expect(missingReference.detail).toContain('transaction_reference_id')
  })

  it('lists the registration list as nexus regions', async () => {
    expect((await client.nexusRegions()).regions).toEqual([])
    const put = await server.call(key, 'PUT', '/v1/portability/nexus', { regions: [{ state: 'GA' }, { state: 'Connecticut', registered_since: '2024-10-01' }] })
    expect(put.status).toBe(200)
    expect((await client.nexusRegions()).regions).toEqual([
      { country_code: 'US', country: 'United States', region_code: 'CT', region: 'Connecticut' },
      { country_code: 'US', country: 'United States', region_code: 'GA', region: 'Georgia' },
    ])
  })

  it('raises TaxjarError with our detail for 401, 404 and 422', async () => {
    const unauthorized = await taxjarError(new Taxjar({ apiKey: 'tx_live_wrong', apiUrl: `${server.url}/taxjar` }).nexusRegions())
    expect(unauthorized).toBeInstanceOf(Taxjar.Error)
    expect(unauthorized).toMatchObject({ error: 'Unauthorized', status: 401, detail: 'Invalid X-API-Key.' })

    const notFound = await taxjarError(client.showOrder('no-such-order'))
    expect(notFound).toMatchObject({ error: 'Not Found', status: 404, detail: 'No order with transaction_id no-such-order for provider api.' })

    const duplicate = await taxjarError(client.createOrder(order('tj-1') as never))
    expect(duplicate).toMatchObject({ error: 'Unprocessable Entity', status: 422 })
    expect(duplicate.detail).toMatch(/already recorded; use PUT/)

    const wrongState = await taxjarError(client.createOrder(order('tj-3', { to_state: 'CT' }) as never))
    expect(wrongState.detail).toBe('to_zip 30303 is not used within to_state CT; it belongs to GA')

    const missing = await taxjarError(client.updateOrder({ transaction_id: 'tj-404', amount: 1 } as never))
    expect(missing.status).toBe(404)
  })

  it('checks line items against amount when x-api-version 2020-08-07 is sent', async () => {
    const strict = new Taxjar({ apiKey: key, apiUrl: `${server.url}/taxjar`, headers: { 'x-api-version': '2020-08-07' } })
    const mismatch = await taxjarError(strict.createOrder(order('tj-math', { amount: 20 }) as never))
    expect(mismatch.status).toBe(422)
    expect(mismatch.detail).toMatch(/is not the line items/)
    expect((await strict.createOrder(order('tj-math') as never)).order.amount).toBe('16.50')
  })

  it('answers raw calls like TaxJar: Token auth, JSON errors everywhere under /taxjar', async () => {
    const token = await fetch(`${server.url}/taxjar/v2/nexus/regions`, { headers: { Authorization: `Token token="${key}"` } })
    expect(token.status).toBe(200)
    const noKey = await fetch(`${server.url}/taxjar/v2/nexus/regions`)
    expect(noKey.status).toBe(401)
    expect(noKey.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await noKey.json()).toMatchObject({ error: 'Unauthorized', status: 401, detail: expect.any(String) })
    const unknown = await fetch(`${server.url}/taxjar/v2/categories`, { headers: { Authorization: `Bearer ${key}` } })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: 'Not Found', status: 404 })
    const malformed = await fetch(`${server.url}/taxjar/v2/transactions/orders`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: '{' })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ error: 'Bad Request', status: 400 })
    // Our own routes keep their own envelope.
    expect(await (await fetch(`${server.url}/v1/nope`)).json()).toMatchObject({ error: { code: 'NOT_FOUND' } })
  })
})
