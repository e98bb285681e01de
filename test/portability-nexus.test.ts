// Nexus health and the registration list against a real server, on the thresholds recorded in
// the state descriptors: CT (sales_and_transactions, $100,000 and 200), MA (sales_only,
// $100,000; marketplace sales excluded), GA (sales_or_transactions; retail sales only, so
// wholesale is left out), DE (no sales tax).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { gaOrder, startPortabilityServer, TODAY, type PortabilityServer } from './support/portability-server.ts'

let server: PortabilityServer

beforeAll(async () => {
  server = await startPortabilityServer(inject('mirrorUrl'))
})
afterAll(() => server?.dispose())

type Row = Record<string, any>

const at = (zip: string, state: string) => (id: string, amount: string, extra: Record<string, unknown> = {}) =>
  gaOrder(id, { to_zip: zip, to_state: state, amount, shipping: '0', sales_tax: '0', transaction_date: '2026-09-15', ...extra })
const ct = at('06103', 'CT')
const ma = at('02108', 'MA')
const ga = at('30303', 'GA')
const de = at('19901', 'DE')

async function healthOf(key: string, query = ''): Promise<{ body: Row; byState: Record<string, Row> }> {
  const { status, body } = await server.call(key, 'GET', `/v1/portability/nexus/health${query}`)
  expect(status).toBe(200)
  return { body, byState: Object.fromEntries(body.states.map((s: Row) => [s.state, s])) }
}

async function load(key: string, rows: unknown[]) {
  const { body } = await server.call(key, 'POST', '/v1/portability/transactions/backfill', rows)
  expect(body.rejected_rows).toEqual([])
  expect(body.accepted).toBe(rows.length)
}

describe('nexus health', () => {
  let key: string

  beforeAll(async () => {
    key = (await server.createAccount('enterprise')).api_key
    await load(key, [
      ...Array.from({ length: 199 }, (_, i) => ct(`ct-${i}`, '600.00')),
      ma('ma-big', '80000.00'),
      ...Array.from({ length: 300 }, (_, i) => ma(`ma-${i}`, '1.00')),
      ma('ma-amazon', '50000.00', { provider: 'amazon' }),
      ga('ga-wholesale', '90000.00', { exemption_type: 'wholesale' }),
      ...Array.from({ length: 10 }, (_, i) => ga(`ga-${i}`, '100.00')),
      ga('ga-old', '1000000.00', { transaction_date: '2025-11-21' }), // the day before the rolling window
      ga('ga-first-day', '5.00', { transaction_date: '2025-11-22' }), // its first day
      de('de-big', '1000000.00'),
    ])
  })

  it('reports totals, rules and statuses per state', async () => {
    const { body, byState } = await healthOf(key)
    expect(body.as_of).toBe(TODAY)
    expect(body.window).toEqual({ from: '2025-11-22', to: TODAY, basis: 'rolling_12_months' })
    expect(body.band).toBe('0.25')
    expect(body.states).toHaveLength(52)

    // CT: the dollars are met but not the 200 transactions, and both are needed.
    expect(byState.CT).toMatchObject({
      order_total: '119400.00',
      transaction_count: 199,
      dollar_threshold: '100000.00',
      transaction_threshold: 200,
      threshold_combination: 'sales_and_transactions',
      measurement_period: expect.stringContaining('Sept 30'),
      threshold_share: { dollars: 1.194, transactions: 0.995 },
      status: 'approaching',
      near_threshold: true,
    })
    // MA: dollars only; the Amazon sale is the facilitator's, not counted.
    expect(byState.MA).toMatchObject({
      order_total: '80300.00',
      transaction_count: 301,
      not_counted_total: '50000.00',
      not_counted_count: 1,
      transaction_threshold: null,
      threshold_combination: 'sales_only',
      counting: { exempt_sales: 'counted', marketplace_sales: 'excluded' },
      status: 'approaching',
    })
    // GA: retail sales only, so the wholesale order is left out; the 2025-11-21 order is outside the window.
    expect(byState.GA).toMatchObject({
      order_total: '1005.00',
      transaction_count: 11,
      not_counted_total: '90000.00',
      counting: { exempt_sales: 'resale_excluded', marketplace_sales: 'counted' },
      status: 'under_threshold',
      near_threshold: false,
    })
    // DE has no sales tax: no threshold, whatever the sales.
    expect(byState.DE).toMatchObject({ order_total: '1000000.00', status: 'no_threshold', near_threshold: false, dollar_threshold: null, threshold_share: { dollars: null, transactions: null } })
    expect(byState.TX).toMatchObject({ order_total: '0.00', transaction_count: 0, dollar_threshold: '500000.00', status: 'under_threshold' })

    expect(body.alerts.map((a: Row) => a.state)).toEqual(['CT', 'MA'])
    expect(body.alerts[0].message).toBe('Connecticut: $119400.00 of the $100000.00 sales threshold (119.4%) and 199 of the 200 transactions threshold (99.5%) in the rolling 12 months (sales_and_transactions)')
    expect(body.exceeded_unregistered).toEqual([])
  })

  it('moves a state to exceeded when its rule is met, and refunds pull it back', async () => {
    expect((await server.call(key, 'POST', '/v1/portability/orders', ct('ct-200', '600.00'))).status).toBe(201)
    let { body, byState } = await healthOf(key)
    expect(byState.CT).toMatchObject({ transaction_count: 200, order_total: '120000.00', status: 'exceeded', near_threshold: false })
    expect(body.alerts.map((a: Row) => a.state)).toEqual(['MA'])
    expect(body.exceeded_unregistered).toEqual(['CT'])

    // MA: a refund is subtracted and never adds to the count.
    await server.call(key, 'POST', '/v1/portability/orders', ma('ma-refund', '20000.00', { kind: 'refund' }))
    ;({ byState } = await healthOf(key))
    expect(byState.MA).toMatchObject({ order_total: '60300.00', transaction_count: 301, status: 'under_threshold' })
  })

  it('takes the band per request or from TAXATLAS_NEXUS_BAND', async () => {
    const narrow = await healthOf(key, '?band=0.05')
    expect(narrow.body.band).toBe('0.05')
    expect(narrow.byState.MA.status).toBe('under_threshold')
    const wide = await healthOf(key, '?band=0.5')
    expect(wide.byState.MA).toMatchObject({ status: 'approaching', near_threshold: true })
    expect((await server.call(key, 'GET', '/v1/portability/nexus/health?band=1.5')).status).toBe(422)

    const other = await startPortabilityServer(inject('mirrorUrl'), { TAXATLAS_NEXUS_BAND: '0.5' })
    try {
      const otherKey = (await other.createAccount('enterprise')).api_key
      await other.call(otherKey, 'POST', '/v1/portability/transactions/backfill', [ga('g-1', '60000.00')])
      const { body } = await other.call(otherKey, 'GET', '/v1/portability/nexus/health')
      expect(body.band).toBe('0.5')
      expect(body.alerts.map((a: Row) => a.state)).toEqual(['GA'])
    } finally {
      await other.dispose()
    }
  })

  it('follows the clock: the rolling window moves with today', async () => {
    server.clock.set(Date.parse('2027-09-16T12:00:00Z'))
    try {
      const { body, byState } = await healthOf(key)
      expect(body.window).toEqual({ from: '2026-09-17', to: '2027-09-16', basis: 'rolling_12_months' })
      expect(byState.CT).toMatchObject({ transaction_count: 0, status: 'under_threshold' })
    } finally {
      server.clock.set(Date.parse(`${TODAY}T15:00:00Z`))
    }
  })

  it('shows nothing of another account', async () => {
    const stranger = (await server.createAccount('enterprise')).api_key
    const { body } = await healthOf(stranger)
    expect(body.states.every((s: Row) => s.order_total === '0.00' && s.transaction_count === 0)).toBe(true)
    expect(body.alerts).toEqual([])
  })
})

describe('the registration list', () => {
  it('is empty until set, replaced as a whole by PUT, and marks health rows', async () => {
    const key = (await server.createAccount('enterprise')).api_key
    expect((await server.call(key, 'GET', '/v1/portability/nexus')).body).toEqual({ regions: [] })

    const set = await server.call(key, 'PUT', '/v1/portability/nexus', { regions: [{ state: 'ct', registered_since: '2024-10-01' }, { state: 'Georgia' }] })
    expect(set.status).toBe(200)
    expect(set.body.regions).toEqual([
      { state: 'CT', name: 'Connecticut', registered_since: '2024-10-01', updated_at: expect.any(String) },
      { state: 'GA', name: 'Georgia', registered_since: null, updated_at: expect.any(String) },
    ])
    expect((await server.call(key, 'GET', '/v1/portability/nexus')).body).toEqual(set.body)
    const { byState } = await healthOf(key)
    expect(byState.CT).toMatchObject({ registered: true, registered_since: '2024-10-01' })
    expect(byState.MA).toMatchObject({ registered: false, registered_since: null })

    const replaced = await server.call(key, 'PUT', '/v1/portability/nexus', { regions: [{ state: 'MA' }] })
    expect(replaced.body.regions.map((r: Row) => r.state)).toEqual(['MA'])
    expect((await server.call(key, 'PUT', '/v1/portability/nexus', { regions: [] })).body).toEqual({ regions: [] })

    const bad = await server.call(key, 'PUT', '/v1/portability/nexus', { regions: [{ state: 'XX' }, { state: 'GA' }, { state: 'ga' }, { state: 'CT', registered_since: 'soon' }] })
    expect(bad.status).toBe(422)
    expect(bad.body.detail.map((d: Row) => d.loc.join('.'))).toEqual(['body.regions.0.state', 'body.regions.2.state', 'body.regions.3.registered_since'])
    // Another account's list is its own.
    const other = (await server.createAccount('enterprise')).api_key
    await server.call(key, 'PUT', '/v1/portability/nexus', { regions: [{ state: 'NY' }] })
    expect((await server.call(other, 'GET', '/v1/portability/nexus')).body).toEqual({ regions: [] })
  })
})
