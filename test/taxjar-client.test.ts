// The official `taxjar` npm client, unchanged, against our server: apiUrl is `<base URL>/taxjar`
// (the client appends /v2/). Every one of its 22 methods is called: 21 answer as TaxJar does
// (orders, refunds, customers, nexus regions, rates, tax for an order, summary rates, categories,
// address validation) and `validate` (EU VAT) answers its documented 404; our errors raise its
// TaxjarError with our detail. The snapshot holds GA, CT, DE and MA.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import Taxjar from 'taxjar'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { WEIGHT_SCALE, RateIndex } from '../snapshot-contract/rate-index.ts'
import { Manifest } from '../snapshot-contract/manifest.ts'
import { readCurrentId, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
import { STATE_FACTS } from '../sources/state-facts.ts'
import { CATEGORIES } from '../server/order-tax/product-categories.ts'
import { startPortabilityServer, type PortabilityServer } from './support/portability-server.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { taxjarError } from './support/taxjar-error.ts'

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
    const unknown = await fetch(`${server.url}/taxjar/v2/nothing-here`, { headers: { Authorization: `Bearer ${key}` } })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: 'Not Found', status: 404 })
    const malformed = await fetch(`${server.url}/taxjar/v2/transactions/orders`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: '{' })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ error: 'Bad Request', status: 400 })
    // Our own routes keep their own envelope.
    expect(await (await fetch(`${server.url}/v1/nope`)).json()).toMatchObject({ error: { code: 'NOT_FOUND' } })
  })
})

describe('customers', () => {
  it('creates, shows, lists, updates and deletes customers, kept per account', async () => {
    const created = await client.createCustomer({
      customer_id: 'cust-1',
      exemption_type: 'wholesale',
      name: 'Dealer Inc.',
      exempt_regions: [{ country: 'US', state: 'GA' }, { country: 'US', state: 'Connecticut' }],
      country: 'US',
      state: 'GA',
      zip: '30303',
      city: 'Atlanta',
      street: '55 Trinity Ave SW',
    } as never)
    expect(created.customer).toEqual({
      customer_id: 'cust-1',
      exemption_type: 'wholesale',
      exempt_regions: [{ country: 'US', state: 'CT' }, { country: 'US', state: 'GA' }],
      name: 'Dealer Inc.',
      country: 'US',
      state: 'GA',
      zip: '30303',
      city: 'Atlanta',
      street: '55 Trinity Ave SW',
    })
    expect((await client.showCustomer('cust-1')).customer).toEqual(created.customer)
    const updated = await client.updateCustomer({ customer_id: 'cust-1', exemption_type: 'government', exempt_regions: [] } as never)
    expect(updated.customer).toMatchObject({ exemption_type: 'government', exempt_regions: [], name: 'Dealer Inc.', city: 'Atlanta' })
    await client.createCustomer({ customer_id: 'cust-0', exemption_type: 'non_exempt', name: 'Shopper' } as never)
    expect((await client.listCustomers()).customers).toEqual(['cust-0', 'cust-1'])

    const duplicate = await taxjarError(client.createCustomer({ customer_id: 'cust-1', exemption_type: 'other', name: 'Again' } as never))
    expect(duplicate).toMatchObject({ status: 422, detail: 'Customer cust-1 already exists; use PUT /v2/customers/cust-1 to update it.' })
    const missing = await taxjarError(client.createCustomer({ customer_id: 'cust-2', name: 'No type' } as never))
    expect(missing.detail).toMatch(/^exemption_type is required/)
    const foreign = await taxjarError(client.createCustomer({ customer_id: 'cust-3', exemption_type: 'other', name: 'X', exempt_regions: [{ country: 'CA', state: 'ON' }] } as never))
    expect(foreign.detail).toMatch(/^exempt_regions\.0\.country CA: only US exempt regions are supported/)

    // Another account sees none of them, and cannot reach them by id.
    const other = new Taxjar({ apiKey: (await server.createAccount('enterprise', 'other')).api_key, apiUrl: `${server.url}/taxjar` })
    expect((await other.listCustomers()).customers).toEqual([])
    expect((await taxjarError(other.showCustomer('cust-1'))).status).toBe(404)

    const deleted = await client.deleteCustomer('cust-0')
    expect(deleted.customer).toMatchObject({ customer_id: 'cust-0', name: 'Shopper' })
    expect((await taxjarError(client.showCustomer('cust-0'))).status).toBe(404)
    expect((await taxjarError(client.updateCustomer({ customer_id: 'cust-0', name: 'Gone' } as never))).status).toBe(404)
    expect((await client.listCustomers()).customers).toEqual(['cust-1'])
  })

  it("an exempt customer's orders owe no tax", async () => {
    const tax = await client.taxForOrder({ to_country: 'US', to_zip: '30303', to_state: 'GA', amount: 10, shipping: 0, customer_id: 'cust-1', nexus_addresses: [{ state: 'GA' }] } as never)
    expect(tax.tax).toMatchObject({ amount_to_collect: 0, has_nexus: true, exemption_reason: 'customer cust-1 is exempt (government) everywhere: no tax is collected' })
  })
})

describe('summary rates, categories, address validation', () => {
  async function servedSnapshot() {
    const id = (await readCurrentId(server.artifactsDir))!
    const dir = snapshotDir(server.artifactsDir, id)
    return { id, rates: new RateIndex(new Uint8Array(await readFile(path.join(dir, 'rates.bin')))), manifest: Manifest.parse(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'))) }
  }

  it("answers each served state's state rate and address-weighted average from the snapshot in service, with its edition", async () => {
    const { id, rates, manifest } = await servedSnapshot()
    const today = new Date(server.clock.now()).toISOString().slice(0, 10)
    const body = (await client.summaryRates()) as unknown as { summary_rates: any[]; snapshot: string; as_of: string }
    expect(body).toMatchObject({ snapshot: id, as_of: today })
    expect(body.summary_rates.map((r) => r.region_code)).toEqual(['CT', 'DE', 'GA', 'MA'])
    for (const row of body.summary_rates) {
      // Worked out here from the index: each ZIP's jurisdictions weighted by their share of its addresses.
      let weighted = 0
      let weights = 0
      let minimum = Infinity
      for (const i of rates.entriesOfState(row.region_code)) {
        for (const candidate of rates.entryAt(i).candidates) {
          const weight = Math.round(candidate.weight * WEIGHT_SCALE)
          const authorities = rates.authoritiesOn(candidate.stack, today)
          weighted += weight * authorities.reduce((sum, a) => sum + a.rate, 0)
          weights += weight
          minimum = Math.min(minimum, authorities.filter((a) => a.level === 'state').reduce((sum, a) => sum + a.rate, 0))
        }
      }
      const average = Math.floor((2 * weighted + weights) / (2 * weights))
      expect(row).toEqual({
        country_code: 'US',
        country: 'United States',
        region_code: row.region_code,
        region: { CT: 'Connecticut', DE: 'Delaware', GA: 'Georgia', MA: 'Massachusetts' }[row.region_code as string],
        minimum_rate: { label: 'State Tax', rate: minimum / 100_000 },
        average_rate: { label: 'Tax', rate: average / 100_000 },
        edition: manifest.states.find((s) => s.code === row.region_code)!.edition,
      })
    }
    const ga = body.summary_rates.find((r) => r.region_code === 'GA')
    expect(ga.minimum_rate.rate).toBe(0.04)
    expect(ga.average_rate.rate).toBeGreaterThan(0.04)
    expect(body.summary_rates.find((r) => r.region_code === 'MA')).toMatchObject({ minimum_rate: { rate: 0.0625 }, average_rate: { rate: 0.0625 } })
    expect(body.summary_rates.find((r) => r.region_code === 'DE')).toMatchObject({ minimum_rate: { rate: 0 }, average_rate: { rate: 0 } })
  })

  it('lists the supported product tax codes, with the states each is modelled in', async () => {
    const { categories } = await client.categories()
    expect(categories.map((c) => c.product_tax_code)).toEqual(['20010', '40030', '51020', '31000', '30070', '99999'])
    expect(categories[0]).toMatchObject({ product_tax_code: '20010', name: 'Clothing', description: expect.any(String) })
    const groceries = categories.find((c) => c.product_tax_code === '40030') as unknown as { modelled_states: string[] }
    expect(groceries.modelled_states).toEqual(expect.arrayContaining(['CA', 'NY', 'TN']))
    expect(groceries.modelled_states).not.toContain('GA')
  })

  it("docs/api.md gives every category rule's source and each freight rule's states as the tables hold them", async () => {
    const api = await readFile(path.join(PROJECT_ROOT, 'docs/api.md'), 'utf8')
    for (const category of CATEGORIES) {
      for (const rule of [category.otherwise, ...Object.values(category.states)]) {
        expect(api, category.code).toContain(rule.kind === 'not_modeled' ? rule.reason : rule.source)
      }
    }
    for (const freight of ['taxable_if_item_taxable', 'always_taxable']) {
      const states = STATE_FACTS.filter((f) => f.freight === freight).map((f) => f.code)
      expect(api).toContain(`| \`${freight}\` | ${states.join(', ')} |`)
    }
  })

  it('validates a ZIP, corrects its state, repairs a short ZIP, lists the ZIPs of a city, and says what it did not check', async () => {
    const wrongState = await client.validateAddress({ zip: '30303', state: 'CT', street: '55  Trinity Ave SW', city: 'Atlanta' } as never)
    expect(wrongState.addresses).toEqual([{ zip: '30303', street: '55 TRINITY AVE SW', state: 'GA', country: 'US', city: 'ATLANTA' }])
    const validation = (wrongState as unknown as { validation: { not_checked: string[]; repairs: string[] } }).validation
    expect(validation.not_checked.join(' ')).toMatch(/street and house number.*ZIP\+4/)
    expect(validation.repairs.join(' ')).toMatch(/GA/)
    const oneLine = await client.validateAddress({ street: '55 Trinity Ave SW, Atlanta, GA 30303-3520' } as never)
    expect(oneLine.addresses).toEqual([{ zip: '30303', street: '55 TRINITY AVE SW', state: 'GA', country: 'US', city: 'ATLANTA' }])
    const short = await client.validateAddress({ zip: '6103' } as never)
    expect(short.addresses).toEqual([expect.objectContaining({ zip: '06103', state: 'CT', city: 'HARTFORD' })])
    const city = await client.validateAddress({ city: 'Atlanta', state: 'GA' } as never)
    expect(city.addresses.length).toBeGreaterThan(10)
    expect(city.addresses.every((a) => a.city === 'ATLANTA' && a.state === 'GA' && /^3\d{4}$/.test(a.zip))).toBe(true)
    expect(await taxjarError(client.validateAddress({ zip: '00000' } as never))).toMatchObject({ status: 404 })
    expect(await taxjarError(client.validateAddress({ city: 'Atlantis', state: 'GA' } as never))).toMatchObject({ status: 404 })
    expect(await taxjarError(client.validateAddress({ zip: '30303', country: 'FR' } as never))).toMatchObject({ status: 400 })
  })
})

describe('every method of the official client', () => {
  it('21 of its 22 methods answer; validate (EU VAT) answers a 404 that says it is out of scope', async () => {
    const methods = Object.getOwnPropertyNames(Taxjar.prototype).filter((name) => name !== 'constructor' && !name.endsWith('ApiConfig'))
    const taxOrder = { to_country: 'US', to_zip: '30303', to_state: 'GA', shipping: 1.5, nexus_addresses: [{ state: 'GA' }], line_items: [{ id: '1', quantity: 1, unit_price: 15 }] }
    const calls: Record<string, () => Promise<unknown>> = {
      categories: () => client.categories(),
      taxForOrder: () => client.taxForOrder(taxOrder as never),
      createOrder: () => client.createOrder(order('every-1') as never),
      showOrder: () => client.showOrder('every-1'),
      listOrders: () => client.listOrders({ transaction_date: '2026/05/14' }),
      updateOrder: () => client.updateOrder({ transaction_id: 'every-1', shipping: 1.5 } as never),
      deleteOrder: () => client.deleteOrder('every-1'),
      createRefund: () => client.createRefund({ ...order('every-1-r', { amount: -16.5, shipping: -1.5, sales_tax: -1.2 }), transaction_reference_id: 'every-1' } as never),
      showRefund: () => client.showRefund('every-1-r'),
      listRefunds: () => client.listRefunds({ transaction_date: '2026/05/14' }),
      updateRefund: () => client.updateRefund({ transaction_id: 'every-1-r', transaction_reference_id: 'every-1', shipping: -1.5 } as never),
      deleteRefund: () => client.deleteRefund('every-1-r'),
      createCustomer: () => client.createCustomer({ customer_id: 'every-c', exemption_type: 'other', name: 'Every' } as never),
      showCustomer: () => client.showCustomer('every-c'),
      listCustomers: () => client.listCustomers(),
      updateCustomer: () => client.updateCustomer({ customer_id: 'every-c', name: 'Every One' } as never),
      deleteCustomer: () => client.deleteCustomer('every-c'),
      ratesForLocation: () => client.ratesForLocation('30303'),
      nexusRegions: () => client.nexusRegions(),
      validateAddress: () => client.validateAddress({ zip: '30303' } as never),
      summaryRates: () => client.summaryRates(),
      validate: () => client.validate({ vat: 'FR40303265045' } as never),
    }
    expect(Object.keys(calls).sort()).toEqual([...methods].sort())
    expect(methods).toHaveLength(22)
    const outcomes: Record<string, string> = {}
    for (const [method, call] of Object.entries(calls)) {
      try {
        const answer = (await call()) as Record<string, unknown>
        outcomes[method] = answer && typeof answer === 'object' && Object.keys(answer).length > 0 ? 'answered' : 'empty'
      } catch (error) {
        const e = error as InstanceType<typeof Taxjar.Error>
        outcomes[method] = `${e.status} ${e.detail}`
      }
    }
    const answered = Object.entries(outcomes).filter(([, outcome]) => outcome === 'answered')
    expect(answered).toHaveLength(21)
    expect(outcomes.validate).toBe(
      "404 VAT number validation (GET /v2/validation) is out of scope: taxatlas serves US sales tax only. Validate EU VAT numbers with the European Commission's VIES service.",
    )
  })
})
