// GET /v1/portability/returns against a real server (real snapshot of GA, CT, DE, TX and IL, a real
// DuckDB file, or PostgreSQL in the postgres project): orders, refunds and exemptions recorded
// through the API come back by jurisdiction with totals that reconcile to the cent with what was
// recorded, tax due at the rates GET /v1/tax answers for each date, the edges said out loud
// (a rate that changed within the period, dates no held data covers, an origin sale without the
// seller's ZIP, a flat-rate state), bad input refused with the field named, and one account never
// seeing another's sales.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { readCurrentId, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
import { startPortabilityServer, type PortabilityServer } from './support/portability-server.ts'

const STATES = 'GA,CT,DE,TX,IL'

let server: PortabilityServer
let a: string
let b: string

beforeAll(async () => {
  server = await startPortabilityServer(inject('mirrorUrl'), {}, STATES)
  a = (await server.createAccount('enterprise', 'returns A')).api_key
  b = (await server.createAccount('enterprise', 'returns B')).api_key
})
afterAll(() => server?.dispose())

type Row = {
  jurisdiction: { level: string; code: string; name: string | null }
  filing_code: { code: string; system: string } | null
  rate: string
  transactions: number
  gross_sales: string
  exempt_sales: Record<string, string>
  taxable_sales: string
  tax_due: string
  tax_collected: string
  difference: string
  default_choice: { transactions: number; gross_sales: string }
}

/** Exact units of 1/10,000 dollar of a decimal string. */
function units(text: string): bigint {
  const negative = text.startsWith('-')
  const [whole, fraction = ''] = text.replace('-', '').split('.')
  const value = BigInt(whole!) * 10_000n + BigInt(fraction.padEnd(4, '0'))
  return negative ? -value : value
}
const sum = (values: bigint[]) => values.reduce((x, y) => x + y, 0n)
/** money units × 1e-5 rate units, to cents, half away from zero */
const cents = (exact: bigint) => (exact < 0n ? -((-exact * 2n + 10_000_000n) / 20_000_000n) : (exact * 2n + 10_000_000n) / 20_000_000n)
/** 1e-5 units of a 5-decimal rate string */
const rateUnits = (rate: string) => {
  const [whole, fraction = ''] = rate.split('.')
  return BigInt(whole!) * 100_000n + BigInt(fraction.padEnd(5, '0'))
}

async function post(key: string, order: Record<string, unknown>) {
  const response = await server.call(key, 'POST', '/v1/portability/orders', order)
  expect(response.status, JSON.stringify(response.body)).toBe(201)
  return response.body.order
}

const returnOf = async (key: string, query: string) => {
  const response = await server.call(key, 'GET', `/v1/portability/returns?${query}`)
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body
}

/** The rates GET /v1/tax answers for a ZIP on a date: level|code → rate units. */
async function ratesOf(state: string, zip: string, date: string): Promise<Map<string, bigint>> {
  const response = await server.call(a, 'GET', `/v1/tax/${state}?zip=${zip}&mode=full&as_of=${date}`)
  expect(response.status).toBe(200)
  return new Map(response.body.rows.map((row: { level: string; code: string; rate: string }) => [`${row.level}|${row.code}`, rateUnits(row.rate)]))
}

/** The latest GA rate change of a local jurisdiction (of those `filter` lists), and a ZIP whose default answer stacks the jurisdiction on its day. */
async function localChangeWithZip(filter: string) {
  const changes = (await server.call(a, 'GET', `/v1/changes?states=GA&include=zips&limit=1000&${filter}`)).body.changes
  const change = changes.reverse().find((c: { kind: string; jurisdiction: { level: string }; zips: string[] }) => c.kind === 'rate_change' && c.jurisdiction.level !== 'state' && c.zips.length > 0)
  expect(change).toBeDefined()
  for (const zip of change.zips as string[]) {
    if ((await ratesOf('ga', zip, change.effective)).has(`${change.jurisdiction.level}|${change.jurisdiction.code}`)) return { change, zip }
  }
  throw new Error(`no ZIP of ${change.jurisdiction.code} stacks it by default`)
}

/** Every invariant a return keeps, whatever its transactions. */
function expectReconciled(body: { rows: Row[]; unassigned: { gross_sales: string; tax_collected: string; transactions: number }[]; totals: Record<string, unknown> }) {
  const totals = body.totals as { transactions: number; gross_sales: string; taxable_sales: string; tax_due: string; tax_collected: string; difference: string; exempt_sales: Record<string, string> }
  const stateRows = body.rows.filter((row) => row.jurisdiction.level === 'state')
  const unassignedGross = sum(body.unassigned.map((row) => units(row.gross_sales)))
  expect(sum(stateRows.map((row) => units(row.gross_sales))) + unassignedGross).toBe(units(totals.gross_sales))
  expect(sum(stateRows.map((row) => units(row.taxable_sales)))).toBe(units(totals.taxable_sales))
  expect(sum(body.rows.map((row) => units(row.tax_due)))).toBe(units(totals.tax_due))
  expect(sum(body.rows.map((row) => units(row.tax_collected))) + sum(body.unassigned.map((row) => units(row.tax_collected)))).toBe(units(totals.tax_collected))
  expect(units(totals.difference)).toBe(units(totals.tax_collected) - units(totals.tax_due))
  for (const kind of Object.keys(totals.exempt_sales)) expect(sum(stateRows.map((row) => units(row.exempt_sales[kind]!)))).toBe(units(totals.exempt_sales[kind]!))
  for (const row of body.rows) {
    expect(units(row.taxable_sales) + sum(Object.values(row.exempt_sales).map(units))).toBe(units(row.gross_sales))
    expect(units(row.tax_due)).toBe(cents(units(row.taxable_sales) * rateUnits(row.rate)) * 100n)
    expect(units(row.difference)).toBe(units(row.tax_collected) - units(row.tax_due))
  }
}

const ga = (id: string, date: string, extra: Record<string, unknown> = {}) => ({
  transaction_id: id,
  transaction_date: date,
  to_country: 'US',
  to_zip: '30303',
  to_state: 'GA',
  amount: '100.00',
  shipping: '0',
  sales_tax: '0',
  ...extra,
})

describe('GET /v1/portability/returns', () => {
  it('turns a quarter of orders, refunds and exemptions into jurisdiction rows that reconcile to the cent', async () => {
    const orders = [
      ga('q-1', '2026-10-05', { amount: '100.00', shipping: '10.00', sales_tax: '8.90' }),
      ga('q-2', '2026-11-02', { amount: '250.55', sales_tax: '22.30' }),
      ga('q-2-refund', '2026-11-10', { kind: 'refund', amount: '50.00', sales_tax: '4.45', transaction_reference_id: 'q-2' }),
      ga('q-3', '2026-10-20', { to_zip: '30002', amount: '80.00', sales_tax: '5.00' }),
      ga('q-4', '2026-10-21', { to_zip: '30002', amount: '19.9999', sales_tax: '1.3333' }),
    ]
    const stored = []
    for (const order of orders) stored.push(await post(a, order))

    const body = await returnOf(a, 'state=ga&from=2026-10-01&to=2026-12-31')
    expect(body).toMatchObject({ state: 'GA', name: 'Georgia', period: { from: '2026-10-01', to: '2026-12-31' }, unassigned: [] })
    expect(body.totals.transactions).toBe(orders.length)
    expect(units(body.totals.gross_sales)).toBe(sum(stored.map((o) => units(o.amount))))
    expect(units(body.totals.tax_collected)).toBe(sum(stored.map((o) => units(o.sales_tax))))
    expectReconciled(body)

    // The oracle: each sale's jurisdictions and rates as GET /v1/tax answers its ZIP on its date.
    const expected = new Map<string, { rate: bigint; taxable: bigint }>()
    for (const order of stored) {
      for (const [jurisdiction, rate] of await ratesOf('ga', order.to_zip, order.transaction_date.slice(0, 10))) {
        const key = `${jurisdiction}|${rate}`
        const known = expected.get(key) ?? { rate, taxable: 0n }
        known.taxable += units(order.amount)
        expected.set(key, known)
      }
    }
    const listed = body.rows.filter((row: Row) => row.jurisdiction.level === 'state' || rateUnits(row.rate) > 0n)
    expect(listed.map((row: Row) => `${row.jurisdiction.level}|${row.jurisdiction.code}|${rateUnits(row.rate)}`).sort()).toEqual(
      [...expected.entries()].filter(([key, { rate }]) => key.startsWith('state|') || rate > 0n).map(([key]) => key).sort(),
    )
    for (const row of body.rows as Row[]) {
      const { taxable } = expected.get(`${row.jurisdiction.level}|${row.jurisdiction.code}|${rateUnits(row.rate)}`)!
      expect(units(row.taxable_sales)).toBe(taxable)
      expect(units(row.tax_due)).toBe(cents(taxable * rateUnits(row.rate)) * 100n)
      // GA's SST rate file gives the SST jurisdiction codes its return uses.
      expect(row.filing_code).toEqual({ code: row.jurisdiction.code, system: 'SST jurisdiction code' })
    }
    // GA taxes shipping with taxable goods: nothing of it is exempt.
    expect(body.rows.every((row: Row) => units(row.exempt_sales.shipping!) === 0n)).toBe(true)
    expect(body.sources).toEqual([{ from: '2026-10-01', to: '2026-12-31', data: 'served', snapshot: body.snapshot, edition: expect.any(String), feed: 'sst', source_kind: 'official' }])
  })

  it('counts exempt sales by why: the exemption sent, a marketplace, an exempt customer, exempt products', async () => {
    const customer = await server.call(a, 'POST', '/taxjar/v2/customers', { customer_id: 'ex-ga', exemption_type: 'wholesale', name: 'Reseller', exempt_regions: [{ country: 'US', state: 'GA' }] })
    expect(customer.status).toBe(201)
    const elsewhere = await server.call(a, 'POST', '/taxjar/v2/customers', { customer_id: 'ex-il', exemption_type: 'government', name: 'Agency', exempt_regions: [{ country: 'US', state: 'IL' }] })
    expect(elsewhere.status).toBe(201)
    await post(a, ga('e-1', '2026-07-02', { amount: '500.00', exemption_type: 'wholesale' }))
    await post(a, ga('e-2', '2026-07-03', { amount: '40.00', provider: 'amazon' }))
    await post(a, ga('e-3', '2026-07-04', { amount: '70.00', customer_id: 'ex-ga' }))
    // Exempt in IL only: taxed in GA; exempt, but sent non_exempt: taxed.
    await post(a, ga('e-4', '2026-07-05', { amount: '30.00', customer_id: 'ex-il' }))
    await post(a, ga('e-5', '2026-07-06', { amount: '20.00', customer_id: 'ex-ga', exemption_type: 'non_exempt' }))
    // A prescription line (exempt everywhere) beside a general one; and a code GA's rules do not model.
    await post(a, ga('e-6', '2026-07-07', { amount: '100.00', line_items: [{ id: '1', quantity: 1, unit_price: '60.00' }, { id: '2', quantity: 2, unit_price: '20.00', product_tax_code: '51020' }] }))
    await post(a, ga('e-7', '2026-07-08', { amount: '12.00', line_items: [{ id: '1', quantity: 1, unit_price: '12.00', product_tax_code: '40030' }] }))

    const body = await returnOf(a, 'state=GA&from=2026-07-01&to=2026-09-30')
    expectReconciled(body)
    const state = body.rows.find((row: Row) => row.jurisdiction.level === 'state')
    expect(state.exempt_sales).toMatchObject({ wholesale: '570.00', marketplace: '40.00', products: '40.00', government: '0.00' })
    expect(state.taxable_sales).toBe('122.00')
    expect(state.gross_sales).toBe('772.00')
    expect(body.notices).toContainEqual({ code: 'product_code_not_applied', message: expect.stringContaining('40030'), transactions: 1 })
  })

  it('gives a rate that changed within the period a row of each rate, each with the sales of its days', async () => {
    const { change, zip } = await localChangeWithZip('to=2025-12-31')
    const dayBefore = new Date(Date.parse(`${change.effective}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
    await post(a, ga('c-before', dayBefore, { to_zip: zip, amount: '300.00' }))
    await post(a, ga('c-after', change.effective, { to_zip: zip, amount: '700.00' }))
    const from = new Date(Date.parse(`${change.effective}T00:00:00Z`) - 10 * 86_400_000).toISOString().slice(0, 10)
    const to = new Date(Date.parse(`${change.effective}T00:00:00Z`) + 10 * 86_400_000).toISOString().slice(0, 10)

    const body = await returnOf(a, `state=GA&from=${from}&to=${to}`)
    expectReconciled(body)
    const rows = body.rows.filter((row: Row) => row.jurisdiction.code === change.jurisdiction.code && row.jurisdiction.level === change.jurisdiction.level)
    expect(rows.map((row: Row) => [row.rate, row.taxable_sales]).sort()).toEqual(
      [
        [change.old_rate, '300.00'],
        [change.new_rate, '700.00'],
      ].sort(),
    )
  })

  it("says what of each row rests on a ZIP's default candidate, and places a sale by the city sent with it", async () => {
    // A GA ZIP of several candidates, one of them a named place whose stack has a local tax the default's lacks.
    const index = new RateIndex(new Uint8Array(await readFile(path.join(snapshotDir(server.artifactsDir, (await readCurrentId(server.artifactsDir))!), 'rates.bin'))))
    const day = '2026-10-15'
    const keysOf = (stack: number[]) => new Set(index.authoritiesOn(stack, day).filter((a) => a.rate > 0).map((a) => `${a.level}|${a.code}`))
    let found: { zip: string; city: string; own: string[]; shared: string[] } | undefined
    for (const i of index.entriesOfState('GA')) {
      const { zip, candidates, city: uspsCity } = index.entryAt(i)
      if (candidates.length < 2) continue
      const byWeight = [...candidates].sort((x, y) => y.weight - x.weight)
      if (byWeight[0]!.weight === byWeight[1]!.weight) continue
      const fallback = keysOf(byWeight[0]!.stack)
      // The ZIP's USPS city names no place (it is every address's mailing name): a place of another name.
      const named = (c: (typeof candidates)[number]) => c.place !== null && !c.place.name.toUpperCase().includes(uspsCity.toUpperCase()) && c.place.name !== byWeight[0]!.place?.name
      const other = byWeight.slice(1).find((c) => named(c) && [...keysOf(c.stack)].some((k) => !fallback.has(k)))
      if (!other) continue
      const keys = keysOf(other.stack)
      found = { zip, city: other.place!.name, own: [...keys].filter((k) => !fallback.has(k)), shared: [...keys].filter((k) => fallback.has(k)) }
      break
    }
    expect(found).toBeDefined()
    const { zip, city, own, shared } = found!
    await post(a, ga('d-default', day, { to_zip: zip, amount: '60.00' }))
    await post(a, ga('d-city', day, { to_zip: zip, to_city: city, amount: '40.00' }))
    const body = await returnOf(a, `state=GA&from=${day}&to=${day}`)
    expectReconciled(body)
    const rowOf = (key: string) => (body.rows as Row[]).find((row) => `${row.jurisdiction.level}|${row.jurisdiction.code}` === key)!
    // The default candidate's sale rests on the choice; the sale whose city named its place does not.
    expect(rowOf(shared.find((k) => k.startsWith('state|'))!)).toMatchObject({ transactions: 2, default_choice: { transactions: 1, gross_sales: '60.00' } })
    for (const key of own) expect(rowOf(key)).toMatchObject({ transactions: 1, gross_sales: '40.00', default_choice: { transactions: 0, gross_sales: '0.00' } })
  })

  it('counts what it cannot rate or place in unassigned, with the reason, and says which days no held data covers', async () => {
    await post(a, ga('old-1', '1995-06-15', { amount: '42.00', sales_tax: '1.68' }))
    const body = await returnOf(a, 'state=GA&from=1995-01-01&to=1995-12-31')
    expectReconciled(body)
    const covering = body.sources.find((source: { from: string; to: string }) => source.from <= '1995-06-15' && '1995-06-15' <= source.to)
    expect(covering.data).toBe('none')
    expect(body.unassigned).toEqual([{ reason: 'rates_not_held', message: expect.stringContaining('no GA rates are held'), transactions: 1, gross_sales: '42.00', tax_collected: '1.68', zips: ['30303'] }])
    expect(body.notices.map((n: { code: string }) => n.code)).toContain('rates_not_held')
    expect(body.totals).toMatchObject({ transactions: 1, gross_sales: '42.00', tax_collected: '1.68', tax_due: '0.00' })

    // TX sources an in-state seller's sales to its own location: without from_zip there is none.
    await post(a, { transaction_id: 'tx-1', transaction_date: '2026-11-03', to_zip: '77002', to_state: 'TX', from_state: 'TX', amount: '64.00', sales_tax: '5.28' })
    await post(a, { transaction_id: 'tx-2', transaction_date: '2026-11-04', to_zip: '77002', to_state: 'TX', from_state: 'TX', from_zip: '75201', amount: '36.00', sales_tax: '2.97' })
    const tx = await returnOf(a, 'state=TX&from=2026-11-01&to=2026-11-30')
    expectReconciled(tx)
    expect(tx.unassigned).toMatchObject([{ reason: 'origin_without_from_zip', transactions: 1, gross_sales: '64.00', tax_collected: '5.28' }])
    // The seller's place answers the sale shipped from Dallas: its jurisdictions as GET /v1/tax gives them.
    const dallas = await ratesOf('tx', '75201', '2026-11-04')
    expect(new Set(tx.rows.map((row: Row) => `${row.jurisdiction.level}|${row.jurisdiction.code}`))).toEqual(new Set([...dallas].filter(([key, rate]) => key.startsWith('state|') || rate > 0n).map(([key]) => key)))
    // TX rates here are an aggregator's: the return says so, and gives no filing codes.
    expect(tx.notices.map((n: { code: string }) => n.code)).toContain('aggregator_rates')
    expect(tx.rows.every((row: Row) => row.filing_code === null)).toBe(true)
  })

  it('gives a flat-rate state one row, and Illinois its location codes with shipping taxed as it rules', async () => {
    await post(a, { transaction_id: 'ct-1', transaction_date: '2026-08-10', to_zip: '06103', to_state: 'CT', amount: '200.00', shipping: '15.00', sales_tax: '12.70' })
    const ct = await returnOf(a, 'state=CT&from=2026-07-01&to=2026-09-30')
    expectReconciled(ct)
    expect(ct.rows).toHaveLength(1)
    expect(ct.rows[0]).toMatchObject({ jurisdiction: { level: 'state' }, transactions: 1, gross_sales: '200.00', taxable_sales: '200.00' })

    await post(a, { transaction_id: 'il-1', transaction_date: '2026-08-11', to_zip: '60601', to_state: 'IL', amount: '110.00', shipping: '10.00', sales_tax: '10.25' })
    const il = await returnOf(a, 'state=IL&from=2026-07-01&to=2026-09-30')
    expectReconciled(il)
    // IL does not tax a separately stated shipping charge, at any level.
    for (const row of il.rows as Row[]) expect([row.gross_sales, row.taxable_sales, row.exempt_sales.shipping]).toEqual(['110.00', '100.00', '10.00'])
    expect(il.notices.map((n: { code: string }) => n.code)).not.toContain('shipping_rule_unverified')
    const local = il.rows.filter((row: Row) => row.jurisdiction.level !== 'state')
    expect(local.length).toBeGreaterThan(0)
    for (const row of local) expect(row.filing_code).toEqual({ code: row.jurisdiction.code, system: 'IDOR location code' })
    expect(il.notices.map((n: { code: string }) => n.code)).toContain('mixed_sourcing')
  })

  it('answers the same rows as a CSV file', async () => {
    const json = await returnOf(a, 'state=GA&from=2026-10-01&to=2026-12-31')
    const response = await fetch(`${server.url}/v1/portability/returns?state=GA&from=2026-10-01&to=2026-12-31&format=csv`, { headers: { 'X-API-Key': a } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="taxatlas-return-GA-2026-10-01-2026-12-31.csv"')
    const lines = (await response.text()).split('\r\n')
    expect(lines.pop()).toBe('')
    const [header, ...rest] = lines.map((line) => line.split(','))
    const column = (name: string) => header!.indexOf(name)
    expect(rest).toHaveLength(json.rows.length + json.unassigned.length + 1)
    json.rows.forEach((row: Row, i: number) => {
      const line = rest[i]!
      expect([line[column('level')], line[column('code')], line[column('rate')], line[column('taxable_sales')], line[column('tax_due')], line[column('tax_collected')]]).toEqual([
        row.jurisdiction.level,
        row.jurisdiction.code,
        row.rate,
        row.taxable_sales,
        row.tax_due,
        row.tax_collected,
      ])
    })
    const total = rest.at(-1)!
    expect([total[column('row')], total[column('gross_sales')], total[column('tax_due')]]).toEqual(['total', json.totals.gross_sales, json.totals.tax_due])
  })

  it('refuses a period longer than 366 days, to before from, an unknown state or format, naming the field', async () => {
    const refused = async (query: string) => {
      const response = await server.call(a, 'GET', `/v1/portability/returns?${query}`)
      expect(response.status).toBe(422)
      expect(response.body.error.code).toBe('VALIDATION_ERROR')
      return response.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))
    }
    expect(await refused('state=GA&from=2025-01-01&to=2026-01-02')).toEqual(['query.to'])
    expect(await refused('state=GA&from=2026-03-01&to=2026-02-01')).toEqual(['query.to'])
    expect(await refused('state=ZZ&from=2026-01-01&to=2026-03-31')).toEqual(['query.state'])
    expect(await refused('state=GA&from=2026-01-01&to=2026-03-31&format=xlsx')).toEqual(['query.format'])
    expect(await refused('state=GA&from=2026-02-30&to=2026-03-31')).toEqual(['query.from'])
    expect(await refused('')).toEqual(['query.state', 'query.from', 'query.to'])
    // A leap year's 366 days are one period.
    expect((await server.call(a, 'GET', '/v1/portability/returns?state=GA&from=2028-01-01&to=2028-12-31')).status).toBe(200)
  })

  it('gives each change of GET /v1/changes?impact=true the sales of the last 90 days it touches and the tax difference it makes on them', async () => {
    const { api_key: c } = await server.createAccount('enterprise', 'impact')
    const { change, zip } = await localChangeWithZip('')
    // TODAY is 2026-11-21: the 90 days are 2026-08-24 to 2026-11-21.
    await post(c, ga('i-1', '2026-08-24', { to_zip: zip, amount: '100.00' }))
    await post(c, ga('i-2', '2026-11-21', { to_zip: zip, amount: '50.00', exemption_type: 'wholesale' }))
    await post(c, ga('i-1-refund', '2026-10-02', { to_zip: zip, kind: 'refund', transaction_reference_id: 'i-1', amount: '20.00' }))
    await post(c, ga('i-old', '2026-08-23', { to_zip: zip, amount: '70.00' }))
    // Another state's sale is no part of a GA change.
    await post(c, { transaction_id: 'i-ct', transaction_date: '2026-10-02', to_zip: '06103', to_state: 'CT', amount: '900.00', sales_tax: '0' })

    const withImpact = (await server.call(c, 'GET', '/v1/changes?states=GA&impact=true&limit=1000')).body.changes
    const same = withImpact.find((x: typeof change) => x.effective === change.effective && x.jurisdiction.code === change.jurisdiction.code && x.jurisdiction.level === change.jurisdiction.level)
    const taxable = units('80.00')
    const difference = cents(taxable * (rateUnits(change.new_rate) - rateUnits(change.old_rate))) * 100n
    expect(same.impact).toEqual({
      window: { from: '2026-08-24', to: '2026-11-21' },
      transactions: 3,
      gross_sales: '130.00',
      taxable_sales: '80.00',
      tax_difference: expect.any(String),
      default_choice: expect.any(Object),
      other_candidates: { transactions: 0, gross_sales: '0.00' },
    })
    expect(units(same.impact.tax_difference)).toBe(difference)
    // Without impact=true, none; another account (with no sales yet) sees none of these.
    expect((await server.call(c, 'GET', '/v1/changes?states=GA&limit=1')).body.changes[0].impact).toBeUndefined()
    const other = (await server.call(b, 'GET', '/v1/changes?states=GA&impact=true&limit=1000')).body.changes
    const theirs = other.find((x: typeof change) => x.effective === change.effective && x.jurisdiction.code === change.jurisdiction.code)
    expect(theirs.impact).toMatchObject({ transactions: 0, gross_sales: '0.00', tax_difference: '0.00' })
    expect((await server.call(c, 'GET', '/v1/changes?impact=yes')).body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['query.impact'])
  })

  it("shows an account its own transactions only", async () => {
    await post(b, ga('q-1', '2026-10-05', { amount: '999.00', sales_tax: '88.91' }))
    const before = await returnOf(a, 'state=GA&from=2026-10-01&to=2026-12-31')
    const mine = await returnOf(b, 'state=GA&from=2026-10-01&to=2026-12-31')
    expect(mine.totals).toMatchObject({ transactions: 1, gross_sales: '999.00', tax_collected: '88.91' })
    // A's own quarter, as before B recorded its sale under the same id.
    await post(a, ga('iso-a', '2026-12-01', { amount: '1.00' }))
    const after = await returnOf(a, 'state=GA&from=2026-10-01&to=2026-12-31')
    expect(after.totals.transactions).toBe(before.totals.transactions + 1)
    expect(units(after.totals.gross_sales) - units(before.totals.gross_sales)).toBe(10_000n)
    expect((await returnOf(b, 'state=GA&from=2026-10-01&to=2026-12-31')).totals).toEqual(mine.totals)
  })
})
