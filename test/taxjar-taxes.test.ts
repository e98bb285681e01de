// Tax for an order (TaxJar's POST /v2/taxes through the official `taxjar` client, and the native
// POST /v1/portability/taxes) on a real server with the real all-states snapshot. Golden orders in
// fourteen states: every expected amount is worked out here from the published rates of the ZIP —
// read from the snapshot's rate index, and for states fed by Avalara's ZIP5 tables checked
// against the drop file itself — and the rule the case names, rounded half up to the cent per
// line item and for shipping.
import Taxjar from 'taxjar'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Level } from '../snapshot-contract/model.ts'
import { ErrorBody } from '../server/base/errors.ts'
import { NativeOrderTaxBody } from '../server/portability/order-tax-native.ts'
import type { Snapshot } from '../server/snapshot/open-snapshot.ts'
import { TaxjarTaxBody } from '../server/taxjar/taxjar-tax-body.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { avalaraRows, dropUnits, lookupArtifacts, openLookupSnapshot } from './support/lookup-snapshots.ts'
import { taxjarError } from './support/taxjar-error.ts'

let lookup: LookupServer
let client: Taxjar
let snapshot: Snapshot

beforeAll(async () => {
  const artifacts = await lookupArtifacts(inject('mirrorUrl'))
  lookup = await startLookupServer(artifacts)
  snapshot = await openLookupSnapshot(artifacts)
  client = new Taxjar({ apiKey: lookup.key, apiUrl: `${lookup.server.url}/taxjar` })
})
afterAll(() => lookup?.close())

type Parts = Record<Level, number> & { combined: number }

const DROP_COLUMNS: Record<Level, string> = { state: 'StateRate', county: 'EstimatedCountyRate', city: 'EstimatedCityRate', district: 'EstimatedSpecialRate' }

/** The rates in force today at a ZIP with one jurisdiction stack, by level, in 1e-5 units. */
async function published(zip: string): Promise<Parts> {
  const [entry, ...more] = snapshot.rates.lookupZip(zip)
  expect(more, `${zip} lies in one state`).toEqual([])
  expect(entry!.candidates, `${zip} has one jurisdiction stack`).toHaveLength(1)
  const parts: Parts = { state: 0, county: 0, city: 0, district: 0, combined: 0 }
  for (const authority of snapshot.rates.authoritiesOn(entry!.candidates[0]!.stack, new Date().toISOString().slice(0, 10))) {
    parts[authority.level] += authority.rate
    parts.combined += authority.rate
  }
  const record = snapshot.manifest.states.find((s) => s.code === entry!.state)!
  if (record.feed === 'avalara-zip5') {
    const row = (await avalaraRows(entry!.state, record.edition!)).get(zip)!
    for (const level of Object.keys(DROP_COLUMNS) as Level[]) expect(parts[level], `${zip} ${level} rate in the drop file`).toBe(dropUnits(row[DROP_COLUMNS[level]]!))
  }
  return parts
}

/** Exact tax of `cents` at `rate` (1e-5), rounded half up to the cent. */
const taxCents = (cents: number, rate: number): number => Number((BigInt(cents) * BigInt(rate) * 2n + 100_000n) / 200_000n)
/** A share of shipping, in cents, rounded half up (the test's amounts keep it whole). */
const share = (shipping: number, part: number, whole: number) => Number((BigInt(shipping) * BigInt(part) * 2n + BigInt(whole)) / (2n * BigInt(whole)))
const toCents = (dollars: number) => Math.round(dollars * 100)

type TaxjarTax = ReturnType<typeof TaxjarTaxBody.parse>['tax']

async function taxFor(order: Record<string, unknown>): Promise<TaxjarTax> {
  const { tax } = await client.taxForOrder(order as never)
  return TaxjarTaxBody.strict().parse({ tax }).tax
}

async function nativeTax(order: Record<string, unknown>) {
  const response = await fetch(`${lookup.server.url}/v1/portability/taxes`, {
    method: 'POST',
    headers: { 'X-API-Key': lookup.key, 'Content-Type': 'application/json' },
    body: JSON.stringify(order),
  })
  return { status: response.status, body: (await response.json()) as any }
}

const line = (id: string, quantity: number, unitPrice: number | string, extra: Record<string, unknown> = {}) => ({ id, quantity, unit_price: unitPrice, ...extra })
const inState = (state: string) => ({ nexus_addresses: [{ country: 'US', state }] })
const lineCents = (tax: TaxjarTax) => tax.breakdown!.line_items.map((l) => toCents(l.tax_collectable))

describe('golden orders: destination sourcing and shipping', () => {
  it('GA (SST): two general lines, shipping taxed where the goods are, at the destination', async () => {
    const r = await published('30303')
    const tax = await taxFor({ from_state: 'SC', from_zip: '29201', to_country: 'US', to_zip: '30303', to_state: 'GA', shipping: 10, ...inState('GA'), line_items: [line('1', 2, 19.99), line('2', 1, 5.25)] })
    const expected = [taxCents(3998, r.combined), taxCents(525, r.combined)]
    expect(lineCents(tax)).toEqual(expected)
    expect(toCents(tax.breakdown!.shipping.tax_collectable)).toBe(taxCents(1000, r.combined))
    expect(toCents(tax.amount_to_collect)).toBe(expected[0]! + expected[1]! + taxCents(1000, r.combined))
    expect(tax).toMatchObject({ order_total_amount: 55.23, shipping: 10, taxable_amount: 55.23, has_nexus: true, freight_taxable: true, tax_source: 'destination' })
    expect(tax.rate).toBe(Number(`0.${String(r.combined).padStart(5, '0')}`))
    expect(tax.jurisdictions).toEqual({ country: 'US', state: 'GA', county: 'FULTON', city: 'ATLANTA' })
    // The levels add up to each line's tax.
    for (const l of tax.breakdown!.line_items) expect(toCents(l.state_amount) + toCents(l.county_amount) + toCents(l.city_amount) + toCents(l.special_district_amount)).toBe(toCents(l.tax_collectable))
  })

  it('CA (mixed sourcing): an in-state seller is taxed at the destination with its districts; separately stated shipping is exempt', async () => {
    const r = await published('90012')
    const tax = await taxFor({ from_zip: '92101', from_state: 'CA', to_country: 'US', to_zip: '90012', to_state: 'CA', shipping: 7.5, ...inState('CA'), line_items: [line('1', 1, 120)] })
    expect(lineCents(tax)).toEqual([taxCents(12000, r.combined)])
    expect(toCents(tax.breakdown!.special_district_tax_collectable)).toBeGreaterThan(0)
    expect(tax).toMatchObject({ tax_source: 'destination', freight_taxable: false, taxable_amount: 120 })
    expect(tax.breakdown!.shipping.tax_collectable).toBe(0)
    const native = await nativeTax({ from_zip: '92101', from_state: 'CA', to_zip: '90012', to_state: 'CA', shipping: 7.5, ...inState('CA'), line_items: [line('1', 1, 120)] })
    expect(native.body.warnings.map((w: { code?: string }) => w.code)).toContain('mixed_sourcing')
  })

  it('FL: separately stated shipping is exempt; county surtax taxed with the state rate', async () => {
    const r = await published('33131')
    const tax = await taxFor({ to_country: 'US', to_zip: '33131', to_state: 'FL', shipping: 12, ...inState('FL'), line_items: [line('1', 4, 12.5)] })
    expect(toCents(tax.amount_to_collect)).toBe(taxCents(5000, r.state + r.county))
    expect(tax.freight_taxable).toBe(false)
  })

  it('HI: the general excise tax reaches shipping even when every item is exempt (prescription drugs)', async () => {
    const r = await published('96813')
    const tax = await taxFor({ to_country: 'US', to_zip: '96813', to_state: 'HI', shipping: 9.99, ...inState('HI'), line_items: [line('rx', 1, 40, { product_tax_code: '51020' })] })
    expect(lineCents(tax)).toEqual([0])
    expect(toCents(tax.breakdown!.shipping.tax_collectable)).toBe(taxCents(999, r.combined))
    expect(tax.freight_taxable).toBe(true)
  })

  it('WA: a line discount lowers the taxable amount', async () => {
    const r = await published('98101')
    const tax = await taxFor({ to_country: 'US', to_zip: '98101', to_state: 'WA', shipping: 0, amount: 54.97, ...inState('WA'), line_items: [line('1', 3, 19.99, { discount: 5 })] })
    expect(tax.breakdown!.line_items[0]!.taxable_amount).toBe(54.97)
    expect(lineCents(tax)).toEqual([taxCents(5497, r.combined)])
  })
})

describe('golden orders: origin sourcing', () => {
  it("TX: an in-state seller's sale is taxed at the seller's ZIP (origin), not the buyer's", async () => {
    const origin = await published('77002')
    const destination = await published('75121')
    expect(origin.combined).not.toBe(destination.combined)
    const order = { to_country: 'US', to_zip: '75121', to_state: 'TX', shipping: 5, line_items: [line('1', 1, 100)] }
    const tax = await taxFor({ ...order, from_country: 'US', from_zip: '77002', from_state: 'TX' })
    expect(tax).toMatchObject({ tax_source: 'origin', has_nexus: true, jurisdictions: { state: 'TX', city: 'HOUSTON' } })
    expect(lineCents(tax)).toEqual([taxCents(10000, origin.combined)])
    expect(toCents(tax.breakdown!.shipping.tax_collectable)).toBe(taxCents(500, origin.combined))
    // From another state the same sale is destination-sourced.
    const remote = await taxFor({ ...order, from_zip: '30303', from_state: 'GA', ...inState('TX') })
    expect(remote.tax_source).toBe('destination')
    expect(toCents(remote.amount_to_collect)).toBe(taxCents(10000, destination.combined) + taxCents(500, destination.combined))
  })

  it('TX: an in-state sale without from_zip is refused, naming from_zip', async () => {
    const error = await taxjarError(taxFor({ from_state: 'TX', to_country: 'US', to_zip: '75201', to_state: 'TX', shipping: 0, amount: 10 }))
    expect(error).toMatchObject({ status: 422 })
    expect(error.detail).toMatch(/^from_zip is required: TX taxes an in-state seller's sales at the seller's location/)
  })
})

describe('golden orders: clothing and other categories', () => {
  it('PA: clothing is exempt, shipping taxed in proportion to the taxable items', async () => {
    const r = await published('19103')
    const tax = await taxFor({ to_country: 'US', to_zip: '19103', to_state: 'PA', shipping: 10, ...inState('PA'), line_items: [line('coat', 1, 80, { product_tax_code: '20010' }), line('lamp', 1, 20)] })
    expect(lineCents(tax)).toEqual([0, taxCents(2000, r.combined)])
    expect(tax.breakdown!.shipping.taxable_amount).toBe(2)
    expect(toCents(tax.breakdown!.shipping.tax_collectable)).toBe(taxCents(share(1000, 2000, 10000), r.combined))
    expect(tax.freight_taxable).toBe(true)
  })

  it('NJ: an all-clothing order owes nothing, its shipping included', async () => {
    const tax = await taxFor({ to_country: 'US', to_zip: '07030', to_state: 'NJ', shipping: 8, ...inState('NJ'), line_items: [line('1', 2, 45, { product_tax_code: '20010' })] })
    expect(tax).toMatchObject({ amount_to_collect: 0, taxable_amount: 0, freight_taxable: false, has_nexus: true })
  })

  it('NY: clothing under $110 an item is exempt in New York City; at $110 or more it is taxed in full; shipping by share', async () => {
    const r = await published('10001')
    const tax = await taxFor({
      to_country: 'US',
      to_zip: '10001',
      to_state: 'NY',
      shipping: 10,
      ...inState('NY'),
      line_items: [line('tee', 2, 50, { product_tax_code: '20010' }), line('boots', 1, 150, { product_tax_code: '20010' })],
    })
    expect(lineCents(tax)).toEqual([0, taxCents(15000, r.combined)])
    expect(toCents(tax.breakdown!.shipping.tax_collectable)).toBe(taxCents(share(1000, 15000, 25000), r.combined))
  })

  it('NY: outside New York City, clothing under $110 still owes the local tax', async () => {
    const r = await published('12207')
    expect(r.county).toBeGreaterThan(0)
    const order = { to_country: 'US', to_zip: '12207', to_state: 'NY', shipping: 0, ...inState('NY'), line_items: [line('tee', 1, 50, { product_tax_code: '20010' })] }
    const tax = await taxFor(order)
    expect(tax.breakdown!.line_items[0]).toMatchObject({ state_amount: 0, state_taxable_amount: 0, county_taxable_amount: 50 })
    expect(lineCents(tax)).toEqual([taxCents(5000, r.county + r.city)])
    const native = await nativeTax(order)
    expect(native.body.warnings.map((w: { code?: string }) => w.code)).toContain('local_exemption_not_modelled')
  })

  it('MN: clothing is exempt at every level; a general line and its share of shipping are taxed', async () => {
    const r = await published('55401')
    const tax = await taxFor({ to_country: 'US', to_zip: '55401', to_state: 'MN', shipping: 6, ...inState('MN'), line_items: [line('1', 1, 30, { product_tax_code: '20010' }), line('2', 1, 30)] })
    expect(lineCents(tax)).toEqual([0, taxCents(3000, r.combined)])
    expect(toCents(tax.breakdown!.shipping.tax_collectable)).toBe(taxCents(300, r.combined))
  })

  it('MA and RI: clothing is taxed only on the part of each item above $175 (MA) and $250 (RI)', async () => {
    const ma = await published('02108')
    const ri = await published('02903')
    const inMa = await taxFor({ to_country: 'US', to_zip: '02108', to_state: 'MA', shipping: 5, ...inState('MA'), line_items: [line('1', 2, 200, { product_tax_code: '20010' }), line('2', 1, 100, { product_tax_code: '20010' })] })
    expect(lineCents(inMa)).toEqual([taxCents(2 * 2500, ma.state), 0])
    expect(inMa.breakdown!.line_items[0]!.taxable_amount).toBe(50)
    expect(inMa.freight_taxable).toBe(false)
    const inRi = await taxFor({ to_country: 'US', to_zip: '02903', to_state: 'RI', shipping: 0, ...inState('RI'), line_items: [line('1', 1, 300, { product_tax_code: '20010' })] })
    expect(lineCents(inRi)).toEqual([taxCents(5000, ri.state)])
  })

  it("TN: groceries are taxed at the 4% state rate plus the local rate", async () => {
    const r = await published('37203')
    const tax = await taxFor({ to_country: 'US', to_zip: '37203', to_state: 'TN', shipping: 0, ...inState('TN'), line_items: [line('1', 1, 80, { product_tax_code: '40030' })] })
    expect(lineCents(tax)).toEqual([taxCents(8000, 4000 + r.county + r.city + r.district)])
    expect(tax.breakdown!.line_items[0]!.state_sales_tax_rate).toBe(0.04)
  })
})

describe('golden orders: nexus and exemptions', () => {
  it('no nexus in the destination state: zero tax, has_nexus false, no breakdown', async () => {
    const tax = await taxFor({ from_zip: '30303', from_state: 'GA', to_country: 'US', to_zip: '80202', to_state: 'CO', shipping: 10, nexus_addresses: [{ state: 'GA' }], line_items: [line('1', 1, 100)] })
    expect(tax).toMatchObject({ has_nexus: false, amount_to_collect: 0, taxable_amount: 0, rate: 0, tax_source: null, jurisdictions: { state: 'CO', city: 'DENVER' } })
    expect(tax.breakdown).toBeUndefined()
  })

  it('an exempt customer owes nothing in its exempt region, with the reason; elsewhere it is taxed', async () => {
    await client.createCustomer({ customer_id: 'wholesale-il', exemption_type: 'wholesale', name: 'Dealer', exempt_regions: [{ country: 'US', state: 'IL' }] } as never)
    const order = { to_country: 'US', to_zip: '60601', to_state: 'IL', shipping: 0, customer_id: 'wholesale-il', ...inState('IL'), line_items: [line('1', 1, 100)] }
    const exempt = await taxFor(order)
    expect(exempt).toMatchObject({ amount_to_collect: 0, has_nexus: true, exemption_reason: 'customer wholesale-il is exempt (wholesale) in IL: no tax is collected' })
    expect(exempt.breakdown!.line_items[0]!.tax_collectable).toBe(0)
    // exemption_type non_exempt on the order overrides the customer's exemption.
    const r = await published('60601')
    expect(toCents((await taxFor({ ...order, exemption_type: 'non_exempt' })).amount_to_collect)).toBe(taxCents(10000, r.combined))
    const ga = await published('30303')
    const elsewhere = await taxFor({ ...order, to_zip: '30303', to_state: 'GA', ...inState('GA') })
    expect(toCents(elsewhere.amount_to_collect)).toBe(taxCents(10000, ga.combined))
  })

  it('exemption_type on the order: zero tax, echoed with its reason', async () => {
    const tax = await taxFor({ to_country: 'US', to_zip: '30303', to_state: 'GA', shipping: 5, exemption_type: 'government', ...inState('GA'), line_items: [line('1', 1, 100)] })
    expect(tax).toMatchObject({ amount_to_collect: 0, rate: 0, exemption_type: 'government', exemption_reason: 'exemption_type government: the order is exempt, no tax is collected' })
  })

  it('nexus from the registration list plus the from address, when no nexus_addresses are sent', async () => {
    const account = await lookup.server.createAccount('enterprise', 'registered seller')
    const put = await fetch(`${lookup.server.url}/v1/portability/nexus`, {
      method: 'PUT',
      headers: { 'X-API-Key': account.api_key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ regions: [{ state: 'WA' }, { state: 'CO', registered_since: '2999-01-01' }] }),
    })
    expect(put.status).toBe(200)
    const seller = new Taxjar({ apiKey: account.api_key, apiUrl: `${lookup.server.url}/taxjar` })
    const order = { from_zip: '30303', from_state: 'GA', to_country: 'US', shipping: 0, line_items: [line('1', 1, 10)] }
    const hasNexus = async (to_zip: string, to_state: string) => (await seller.taxForOrder({ ...order, to_zip, to_state } as never)).tax.has_nexus
    expect(await hasNexus('98101', 'WA')).toBe(true)
    expect(await hasNexus('30303', 'GA')).toBe(true)
    expect(await hasNexus('02108', 'MA')).toBe(false)
    // A registration dated after today does not count yet.
    expect(await hasNexus('80202', 'CO')).toBe(false)
  })

  it('an order with an amount and no line items: the amount is taxed as general goods, without a breakdown', async () => {
    const r = await published('30303')
    const tax = await taxFor({ to_country: 'US', to_zip: '30303', to_state: 'GA', amount: 49.99, shipping: 0, ...inState('GA') })
    expect(toCents(tax.amount_to_collect)).toBe(taxCents(4999, r.combined))
    expect(tax.breakdown).toBeUndefined()
  })
})

describe('the native endpoint', () => {
  it('answers the same tax with decimal strings, levels and line parts', async () => {
    const order = { to_zip: '10001', to_state: 'NY', shipping: '10.00', ...inState('NY'), line_items: [line('tee', 2, '50.00', { product_tax_code: '20010' }), line('boots', 1, '150.00', { product_tax_code: '20010' })] }
    const { status, body } = await nativeTax(order)
    expect(status).toBe(200)
    const native = NativeOrderTaxBody.parse(body)
    const taxjar = await taxFor({ ...order, to_country: 'US' })
    expect(native.amount_to_collect).toBe(taxjar.amount_to_collect.toFixed(2))
    expect(native).toMatchObject({ amount: '250.00', shipping: '10.00', order_total_amount: '260.00', has_nexus: true, nexus_basis: 'nexus_addresses', tax_source: 'destination' })
    expect(native.rate).toMatch(/^0\.\d{5}$/)
    expect(native.lines.map((l) => [l.id, l.category, l.tax_collectable])).toEqual([
      ['tee', 'Clothing', '0.00'],
      ['boots', 'Clothing', taxjar.breakdown!.line_items[1]!.tax_collectable.toFixed(2)],
    ])
    const levels = native.lines[1]!.levels
    expect(Object.values(levels).reduce((sum, l) => sum + toCents(Number(l.tax_collectable)), 0)).toBe(toCents(Number(native.lines[1]!.tax_collectable)))
    expect(native.components.map((c) => c.level).sort()).toEqual(['city', 'county', 'district', 'state'])
  })

  it("TaxJar's JSON numbers are the native answer's decimals, read as numbers", async () => {
    const order = { to_zip: '98101', to_state: 'WA', shipping: '7.77', ...inState('WA'), line_items: [line('a', 3, '0.3333'), line('b', 1, '19.99', { discount: '0.99' }), line('c', 2, '120.05', { product_tax_code: '20010' })] }
    const native = NativeOrderTaxBody.parse((await nativeTax(order)).body)
    const taxjar = await taxFor({ ...order, to_country: 'US' })
    expect(taxjar.amount_to_collect).toBe(Number(native.amount_to_collect))
    expect(taxjar.taxable_amount).toBe(Number(native.taxable_amount))
    expect(taxjar.rate).toBe(Number(native.rate))
    native.lines.forEach((l, i) => {
      const t = taxjar.breakdown!.line_items[i]!
      expect([t.taxable_amount, t.tax_collectable, t.combined_tax_rate, t.state_amount, t.city_amount]).toEqual(
        [l.taxable_amount, l.tax_collectable, l.rate, l.levels.state.tax_collectable, l.levels.city.tax_collectable].map(Number),
      )
    })
    expect(taxjar.breakdown!.shipping.tax_collectable).toBe(Number(native.shipping_tax.tax_collectable))
    expect(taxjar.breakdown!.line_items[0]!.taxable_amount).toBe(0.9999)
  })

  it('says when a customer_id is not on file (taxed without an exemption)', async () => {
    const { body } = await nativeTax({ to_zip: '30303', to_state: 'GA', shipping: 0, amount: 10, customer_id: 'nobody', ...inState('GA') })
    expect(Number(body.amount_to_collect)).toBeGreaterThan(0)
    expect(body.warnings).toContainEqual({ code: 'customer_not_found', message: expect.stringContaining('customer_id nobody is not on file') })
  })

  it('is described in /openapi.json beside the TaxJar routes', async () => {
    const document = await (await fetch(`${lookup.server.url}/openapi.json`)).json()
    expect(document.paths['/v1/portability/taxes'].post.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/OrderTax')
    for (const path of ['/taxjar/v2/taxes', '/taxjar/v2/summary_rates', '/taxjar/v2/categories', '/taxjar/v2/customers', '/taxjar/v2/customers/{customer_id}', '/taxjar/v2/addresses/validate', '/taxjar/v2/validation']) {
      expect(document.paths[path], path).toBeDefined()
    }
    expect(document.components.schemas.OrderTaxInput.additionalProperties).toBe(false)
  })

  it('answers errors in the service envelope', async () => {
    const { status, body } = await nativeTax({ to_zip: '30303', to_state: 'GA', shipping: 0, ...inState('GA'), line_items: [line('1', 1, 10, { product_tax_code: '40030' })] })
    expect(status).toBe(400)
    expect(ErrorBody.parse(body).error).toMatchObject({ code: 'INVALID_INPUT', supported_codes: expect.arrayContaining(['20010', '40030']) })
    expect(body.error.message).toContain('40030 (Food & Groceries) is not modelled in GA')
  })
})

describe('malformed orders: TaxJar-shaped 400 and 422 naming the field, nothing stored', () => {
  const ga = { to_country: 'US', to_zip: '30303', to_state: 'GA', shipping: 0, ...inState('GA') }

  it('refuses each malformed order with the field it is about', async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ ...ga, line_items: [line('1', -2, 10)] }, 422, /^line_items\.0\.quantity must not be negative/],
      [{ ...ga, line_items: [line('1', 1.5, 10)] }, 422, /^line_items\.0\.quantity must be a whole number/],
      [{ ...ga, amount: 20, line_items: [line('1', 1, 15)] }, 422, /^amount 20\.00 is not the line items' total, 15\.00 after discounts/],
      [{ ...ga, line_items: [{ id: '1', quantity: 1 }] }, 422, /^line_items\.0\.unit_price is required/],
      [{ ...ga, line_items: [line('1', 1, 10, { discount: 12 })] }, 422, /^line_items\.0\.discount 12\.00 is more than the line's 10\.00/],
      [{ ...ga, to_state: 'CT' }, 422, /^to_zip 30303 is not used within to_state CT; it belongs to GA/],
      [{ ...ga, shipping: undefined, amount: 10 }, 422, /^shipping is required/],
      [{ ...ga, shipping: -1, amount: 10 }, 422, /^shipping must not be negative/],
      [{ ...ga, amount: 10, line_item: [line('1', 1, 10)] }, 422, /Unrecognized key: "line_item"/],
      [{ ...ga, line_items: [line('1', 1, 10, { tax_code: '20010' })] }, 422, /^line_items\.0: Unrecognized key: "tax_code"/],
      [{ ...ga, line_items: Array.from({ length: 10_000 }, (_, i) => line(String(i), 1, 1)) }, 422, /^line_items: Too big: expected array to have <=1000 items/],
      [{ ...ga, line_items: [line('1', 1, 10, { product_tax_code: '12345' })] }, 400, /^line_items\.0\.product_tax_code "12345" is not a supported product tax code; supported codes: 20010 \(Clothing\)/],
      [{ ...ga, to_country: 'CA', amount: 10 }, 422, /^to_country CA: only US destinations are served/],
      [{ to_country: 'US', to_zip: '30303', to_state: 'GA', shipping: 0, amount: 10 }, 400, /^No from address, no nexus address, and no address on file/],
    ]
    for (const [order, status, detail] of cases) {
      const error = await taxjarError(taxFor(order))
      expect(error.status, JSON.stringify(order).slice(0, 200)).toBe(status)
      expect(error.detail).toMatch(detail)
    }
  })

  it('a platform plugin field is accepted; a refused order or customer stores nothing', async () => {
    expect((await taxFor({ ...ga, amount: 10, plugin: 'woo' })).has_nexus).toBe(true)
    const before = (await client.listCustomers()).customers
    const error = await taxjarError(client.createCustomer({ customer_id: 'bad', exemption_type: 'resale', name: 'X' } as never))
    expect(error).toMatchObject({ status: 422 })
    expect(error.detail).toMatch(/^exemption_type must be one of wholesale, government, other, non_exempt/)
    expect((await client.listCustomers()).customers).toEqual(before)
    expect((await client.listOrders({ from_transaction_date: '2000/01/01', to_transaction_date: '2999/12/31' })).orders).toEqual([])
  })
})

describe('TAXATLAS_UNKNOWN_TAX_CODES=general', () => {
  let general: LookupServer
  beforeAll(async () => {
    general = await startLookupServer(await lookupArtifacts(inject('mirrorUrl')), { TAXATLAS_UNKNOWN_TAX_CODES: 'general' })
  })
  afterAll(() => general?.close())

  it('taxes a code the table cannot answer as general goods, and says so', async () => {
    const r = await published('30303')
    const order = { to_zip: '30303', to_state: 'GA', shipping: 0, ...inState('GA'), line_items: [line('1', 1, 10, { product_tax_code: '12345' }), line('2', 1, 20, { product_tax_code: '40030' })] }
    const response = await fetch(`${general.server.url}/v1/portability/taxes`, { method: 'POST', headers: { 'X-API-Key': general.key, 'Content-Type': 'application/json' }, body: JSON.stringify(order) })
    const body = NativeOrderTaxBody.parse(await response.json())
    expect(body.lines.map((l) => toCents(Number(l.tax_collectable)))).toEqual([taxCents(1000, r.combined), taxCents(2000, r.combined)])
    const notes = body.warnings.filter((w): w is { code: string; message: string } => typeof w === 'object' && w.code === 'taxed_as_general')
    expect(notes.map((n) => n.message)).toEqual([
      expect.stringMatching(/^line_items\.0\.product_tax_code "12345" is not a supported product tax code; taxed as general goods/),
      expect.stringMatching(/^line_items\.1\.product_tax_code 40030 \(Food & Groceries\) is not modelled in GA/),
    ])
  })
})
