// POST /v1/portability/transactions/backfill against a real server: a JSON array and a streamed
// NDJSON body, the 24-month window, per-row rejections with reasons, duplicates, re-runs, gzip.
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { centsText, ndjsonOf, planCents, planRow, postNdjson, type RowPlan } from './support/portability-rows.ts'
import { servedZips } from './support/portability-snapshot.ts'
import { gaOrder, startPortabilityServer, TODAY, type PortabilityServer } from './support/portability-server.ts'

let server: PortabilityServer
let zips: Map<string, string[]>

beforeAll(async () => {
  server = await startPortabilityServer(inject('mirrorUrl'))
  zips = await servedZips(server.artifactsDir)
})
afterAll(() => server?.dispose())

const backfillJson = (key: string, body: unknown) => server.call(key, 'POST', '/v1/portability/transactions/backfill', body)
const health = async (key: string) => (await server.call(key, 'GET', '/v1/portability/nexus/health')).body

describe('backfill', () => {
  it('takes a JSON array, judging each row on its own', async () => {
    const { api_key: key } = await server.createAccount('enterprise')
    const rows = [
      gaOrder('h-1', { transaction_date: '2025-12-01' }),
      gaOrder('h-2', { transaction_date: '2024-11-21' }), // first day of the window (24 months back)
      gaOrder('h-3', { transaction_date: '2024-11-20' }), // one day too old
      gaOrder('h-4', { transaction_date: '2026-11-22' }), // tomorrow
      gaOrder('h-5', { to_state: 'MA' }),
      gaOrder('h-6', { amount: 'lots' }),
      'not an object',
      gaOrder('h-1', { amount: '1.00' }), // repeats h-1: the first wins
      gaOrder('h-7', { kind: 'refund', amount: '5.00', transaction_date: '2026-06-01' }),
    ]
    const { status, body } = await backfillJson(key, rows)
    expect(status).toBe(200)
    expect(body).toMatchObject({ format: 'json', received: 9, accepted: 3, duplicate: 1, rejected: 5, rejected_rows_truncated: false, window: { from: '2024-11-21', to: TODAY } })
    // The repeat of h-1 is valid (dated 2026-10-01), only not stored again.
    expect(body.valid_dates).toEqual({ earliest: '2024-11-21', latest: '2026-10-01' })
    expect(body.rejected_rows).toEqual([
      { line: 3, transaction_id: 'h-3', errors: [{ loc: ['transaction_date'], msg: 'transaction_date 2024-11-20 is older than the backfill window, which starts 2024-11-21 (24 months back)', type: 'outside_window', input: '2024-11-20' }] },
      { line: 4, transaction_id: 'h-4', errors: [{ loc: ['transaction_date'], msg: `transaction_date 2026-11-22 is in the future (today is ${TODAY}, UTC)`, type: 'outside_window', input: '2026-11-22' }] },
      { line: 5, transaction_id: 'h-5', errors: [{ loc: ['to_zip'], msg: 'to_zip 30303 is not used within to_state MA; it belongs to GA', type: 'zip_state_mismatch', input: '30303' }] },
      { line: 6, transaction_id: 'h-6', errors: [{ loc: ['amount'], msg: 'amount: "lots" is not a plain decimal number (write e.g. "19.99")', type: 'value_error', input: 'lots' }] },
      { line: 7, transaction_id: null, errors: [expect.objectContaining({ loc: [], type: 'invalid_type' })] },
    ])
    // h-1 kept its first amount; the refund subtracts; h-2 (2024) is outside the rolling 12 months.
    const ga = (await health(key)).states.find((s: { state: string }) => s.state === 'GA')
    expect(ga).toMatchObject({ order_total: '14.99', transaction_count: 1 })
    expect((await server.call(key, 'GET', '/v1/portability/orders/h-1')).body.order.amount).toBe('19.99')
    expect((await server.call(key, 'GET', '/v1/portability/orders/h-7?kind=refund')).body.order.source).toBe('backfill')
  })

  it('streams NDJSON, and a re-run of the same file adds nothing', async () => {
    const { api_key: key } = await server.createAccount('enterprise')
    const plan: RowPlan = { rows: 25_000, zips: [['GA', zips.get('GA')!], ['CT', zips.get('CT')!], ['MA', zips.get('MA')!]], today: TODAY, days: 360 }
    const first = await postNdjson(server.url, key, ndjsonOf(plan))
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({ format: 'ndjson', received: 25_000, accepted: 25_000, duplicate: 0, rejected: 0, rejected_rows: [] })
    const before = await health(key)

    const again = await postNdjson(server.url, key, ndjsonOf(plan))
    expect(await again.json()).toMatchObject({ received: 25_000, accepted: 0, duplicate: 25_000, rejected: 0 })
    expect(await health(key)).toEqual(before)

    // Totals are exact: the plan's cents, summed as integers.
    for (const state of ['GA', 'CT', 'MA']) {
      const row = before.states.find((s: { state: string }) => s.state === state)
      const cents = planCents(plan, state)
      expect(row.order_total).toBe(centsText(cents))
    }
  })

  it('stores only the new rows of an upload that holds stored ones too, in every chunk after them as well', async () => {
    const { api_key: key } = await server.createAccount('enterprise')
    // Past the first PostgreSQL chunks (50,000 rows each, two committing at once): the stored key
    // sits in a first chunk, and the chunk after it holds none.
    const plan: RowPlan = { rows: 110_000, zips: [['GA', zips.get('GA')!]], today: TODAY, days: 300, prefix: 'mix' }
    const stored = planRow(plan, 10)
    const order = await server.call(key, 'POST', '/v1/portability/orders', { ...stored, amount: '3.00' })
    expect(order.status).toBe(201)

    const response = await postNdjson(server.url, key, ndjsonOf(plan))
    expect(await response.json()).toMatchObject({ received: 110_000, accepted: 109_999, duplicate: 1, rejected: 0 })
    expect((await server.call(key, 'GET', '/v1/portability/orders/mix-10')).body.order).toMatchObject({ amount: '3.00', source: 'api' })
    const replaced = planCents(plan, 'GA', 11) - planCents(plan, 'GA', 10)
    const ga = (await health(key)).states.find((s: { state: string }) => s.state === 'GA')
    expect(ga.order_total).toBe(centsText(planCents(plan, 'GA') - replaced + 300n))
  })

  it('reports rejected lines with line numbers, keeps the first 1,000, and counts them all', async () => {
    const { api_key: key } = await server.createAccount('enterprise')
    const ga = zips.get('GA')!
    const lines = ['', '{"transaction_id": "n-1", "transaction_date": "2026-01-05", "to_zip": "' + ga[0] + '", "to_state": "GA", "amount": "10"}', '{broken', '   ']
    for (let i = 0; i < 1_500; i++) lines.push(JSON.stringify({ transaction_id: `bad-${i}`, transaction_date: '2026-01-05', to_zip: ga[0], to_state: 'GA' }))
    const response = await postNdjson(server.url, key, (async function* () { yield Buffer.from(lines.join('\n')) })())
    const body = await response.json()
    expect(body).toMatchObject({ received: 1_502, accepted: 1, rejected: 1_501, rejected_rows_truncated: true })
    expect(body.rejected_rows).toHaveLength(1_000)
    expect(body.rejected_rows[0]).toMatchObject({ line: 3, transaction_id: null, errors: [{ type: 'json_invalid', msg: expect.stringContaining('not valid JSON') }] })
    expect(body.rejected_rows[1]).toEqual({ line: 5, transaction_id: 'bad-0', errors: [{ loc: ['amount'], msg: 'amount is required', type: 'value_error' }] })
  })

  it('accepts gzip-compressed NDJSON', async () => {
    const { api_key: key } = await server.createAccount('enterprise')
    const text = [gaOrder('z-1'), gaOrder('z-2')].map((row) => JSON.stringify(row)).join('\n')
    const response = await postNdjson(server.url, key, (async function* () { yield gzipSync(text) })(), { 'Content-Encoding': 'gzip' })
    expect(await response.json()).toMatchObject({ received: 2, accepted: 2 })
  })

  it('refuses other media types and non-array JSON', async () => {
    const { api_key: key } = await server.createAccount('enterprise')
    const csv = await fetch(`${server.url}/v1/portability/transactions/backfill`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'text/csv' }, body: 'a,b' })
    expect(csv.status).toBe(415)
    expect((await csv.json()).error.message).toMatch(/NDJSON/)
    const object = await backfillJson(key, { rows: [] })
    expect(object.status).toBe(422)
    expect((await backfillJson(key, { transactions: [gaOrder('w-1')] })).body).toMatchObject({ accepted: 1 })
  })

  it('survives an upload cut off midway: nothing half-written, and the file can be sent again', async () => {
    const { api_key: key } = await server.createAccount('enterprise')
    const plan: RowPlan = { rows: 20_000, zips: [['GA', zips.get('GA')!]], today: TODAY, prefix: 'cut' }
    const abort = new AbortController()
    async function* cutOff() {
      let sent = 0
      for await (const chunk of ndjsonOf(plan)) {
        yield chunk
        if ((sent += chunk.length) > 300_000) {
          abort.abort()
          return
        }
      }
    }
    await expect(fetch(`${server.url}/v1/portability/transactions/backfill`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/x-ndjson' },
      body: cutOff() as unknown as BodyInit,
      duplex: 'half',
      signal: abort.signal,
    } as RequestInit)).rejects.toThrow()
    const again = await postNdjson(server.url, key, ndjsonOf(plan))
    expect(await again.json()).toMatchObject({ received: 20_000, accepted: 20_000, duplicate: 0 })
  })

  it('keeps accounts apart: the same ids in two accounts are two histories', async () => {
    const a = (await server.createAccount('enterprise')).api_key
    const b = (await server.createAccount('enterprise')).api_key
    expect((await backfillJson(a, [gaOrder('same-1', { amount: '100.00' })])).body.accepted).toBe(1)
    expect((await backfillJson(b, [gaOrder('same-1', { amount: '7.00' })])).body.accepted).toBe(1)
    const total = async (key: string) => (await health(key)).states.find((s: { state: string }) => s.state === 'GA').order_total
    expect(await total(a)).toBe('100.00')
    expect(await total(b)).toBe('7.00')
  })
})
