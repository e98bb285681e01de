// What the client puts on the wire, checked on a scripted server: paths and query strings of
// every method, the key header (X-API-Key or Bearer), JSON and NDJSON bodies, and a streamed
// backfill sent again only when none of its rows was read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ServiceError, TaxatlasClient, type OrderInput, type TaxatlasClientOptions } from '../client/index.ts'
import { errorEnvelope, startFaultServer, type FaultServer, type ScriptedAnswer } from './support/client-fault-server.ts'
import { recordingClient } from './support/client-recording.ts'

let fault: FaultServer
beforeAll(async () => {
  fault = await startFaultServer()
})
afterAll(() => fault?.close())

const ok = (body: unknown = {}): ScriptedAnswer => ({ status: 200, body })
const noWait = async () => {}
const client = (options: Partial<TaxatlasClientOptions> = {}) =>
  new TaxatlasClient({ baseUrl: fault.url, apiKey: 'key-1', sleep: noWait, ...options })

const report = { format: 'ndjson', received: 0, accepted: 0, duplicate: 0, rejected: 0, rejected_rows: [], rejected_rows_truncated: false, window: { from: 'a', to: 'b' }, valid_dates: null }
const row = (i: number): OrderInput => ({ transaction_id: `t-${i}`, transaction_date: '2026-10-01', to_zip: '30303', to_state: 'GA', amount: '10.00' })

describe('paths and query strings', () => {
  it('tax() sends exactly the parameters of its input mode and options', async () => {
    const calls: [Parameters<TaxatlasClient['tax']>[1], string][] = [
      [{ zip: '30303' }, '/v1/tax/ga?zip=30303'],
      [{ address: '55 Trinity Ave SW', city: 'Atlanta', zip: '30303' }, '/v1/tax/ga?address=55+Trinity+Ave+SW&city=Atlanta&zip=30303'],
      [{ location: 'Saint Paul, MN' }, '/v1/tax/ga?location=Saint+Paul%2C+MN'],
      [{ lat: 33.749, lng: -84.388 }, '/v1/tax/ga?lat=33.749&lng=-84.388'],
      [{ lat: 1e-7, lng: 0 }, '/v1/tax/ga?lat=0.0000001&lng=0'],
      [{ zip: '30303', mode: 'full', strict: true, as_of: '2022-06-01' }, '/v1/tax/ga?zip=30303&mode=full&strict=on&as_of=2022-06-01'],
      [{ zip: '30303', strict: false, as_of: new Date('2026-05-14T23:59:00Z') }, '/v1/tax/ga?zip=30303&strict=off&as_of=2026-05-14'],
      [{ zip: '30303', period: '2026Q2' }, '/v1/tax/ga?zip=30303&period=2026Q2'],
    ]
    fault.script(...calls.map(() => ok()))
    for (const [params] of calls) await client().tax('ga', params)
    expect(fault.requests.map((r) => r.url)).toEqual(calls.map(([, url]) => url))
  })

  it('the state is escaped into the path', async () => {
    fault.script(ok())
    await client().tax('new york/x', { zip: '10001' })
    expect(fault.requests[0].url).toBe('/v1/tax/new%20york%2Fx?zip=10001')
  })

  it('the other methods', async () => {
    fault.script(...Array(9).fill(ok()))
    const c = client()
    await c.portabilityRates({ address: '1 Main St, Atlanta, GA 30303', format: 'taxjar' })
    await c.portabilityRates({ street: '1 Main St', city: 'Atlanta', state: 'GA', zip: '30303', seller_state: 'CA', seller_zip: '94105', format: 'avalara' })
    await c.portabilityRates({ lat: 33.749, lng: -84.388 })
    await c.getOrder('o/1', { provider: 'shopify', kind: 'refund' })
    await c.nexus()
    await c.nexusHealth({ band: 0.1 })
    await c.freshness()
    await c.account()
    await c.health()
    expect(fault.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/portability/rates?address=1+Main+St%2C+Atlanta%2C+GA+30303&format=taxjar',
      'GET /v1/portability/rates?street=1+Main+St&city=Atlanta&state=GA&zip=30303&seller_state=CA&seller_zip=94105&format=avalara',
      'GET /v1/portability/rates?lat=33.749&lng=-84.388',
      'GET /v1/portability/orders/o%2F1?provider=shopify&kind=refund',
      'GET /v1/portability/nexus',
      'GET /v1/portability/nexus/health?band=0.1',
      'GET /v1/freshness',
      'GET /v1/account',
      'GET /healthz',
    ])
  })

  it('a base URL with a path prefix and a trailing slash', async () => {
    fault.script(ok())
    await client({ baseUrl: `${fault.url}/taxatlas/` }).health()
    expect(fault.requests[0].url).toBe('/taxatlas/healthz')
  })
})

describe('the API key', () => {
  it('goes in X-API-Key by default', async () => {
    fault.script(ok())
    await client().account()
    expect(fault.requests[0].headers).toMatchObject({ 'x-api-key': 'key-1', accept: 'application/json' })
    expect(fault.requests[0].headers.authorization).toBeUndefined()
  })

  it("goes in Authorization: Bearer with authHeader 'bearer'", async () => {
    fault.script(ok())
    await client({ authHeader: 'bearer' }).account()
    expect(fault.requests[0].headers.authorization).toBe('Bearer key-1')
    expect(fault.requests[0].headers['x-api-key']).toBeUndefined()
  })

  it('is not sent when none was given', async () => {
    fault.script(ok())
    await client({ apiKey: undefined }).freshness()
    expect(fault.requests[0].headers['x-api-key']).toBeUndefined()
    expect(fault.requests[0].headers.authorization).toBeUndefined()
  })
})

describe('bodies', () => {
  it('createOrder and setNexus send JSON', async () => {
    fault.script(ok(), ok())
    await client().createOrder(row(1))
    await client().setNexus([{ state: 'GA', registered_since: '2025-01-01' }])
    expect(fault.requests.map((r) => [r.method, r.url, r.headers['content-type'], JSON.parse(r.body)])).toEqual([
      ['POST', '/v1/portability/orders', 'application/json', row(1)],
      ['PUT', '/v1/portability/nexus', 'application/json', { regions: [{ state: 'GA', registered_since: '2025-01-01' }] }],
    ])
  })

  it('backfill sends an array as one JSON array', async () => {
    fault.script(ok(report))
    await client().backfill([row(1), row(2)])
    expect(fault.requests[0].headers['content-type']).toBe('application/json')
    expect(JSON.parse(fault.requests[0].body)).toEqual([row(1), row(2)])
  })

  it('backfill streams an async iterable as NDJSON, in chunks, one row per line', async () => {
    async function* rows() {
      for (let i = 0; i < 5_000; i++) yield row(i)
    }
    fault.script(ok(report))
    await client().backfill(rows())
    const [request] = fault.requests
    expect(request.headers['content-type']).toBe('application/x-ndjson')
    expect(request.headers['transfer-encoding']).toBe('chunked')
    expect(request.headers['idempotency-key']).toBeTruthy()
    const lines = request.body.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines.map((line) => JSON.parse(line))).toEqual(Array.from({ length: 5_000 }, (_, i) => row(i)))
  })

  it('backfill streams any other sync iterable (a generator, a Set) as NDJSON too', async () => {
    fault.script(ok(report))
    await client().backfill(new Set([row(1), row(2)]))
    expect(fault.requests[0].headers['content-type']).toBe('application/x-ndjson')
    expect(fault.requests[0].body).toBe(`${JSON.stringify(row(1))}\n${JSON.stringify(row(2))}\n`)
  })
})

describe('webhook calls', () => {
  it('put the endpoint id in the path, escaped, send JSON, and take a 204 as done', async () => {
    fault.script(ok(), ok(), ok(), { status: 204 }, ok())
    const c = client()
    await c.createWebhook({ url: 'https://hooks.example/a', secret: 'whsec_0123456789abcdef' })
    await c.webhooks()
    await c.updateWebhook('wh/1', { enabled: true })
    expect(await c.deleteWebhook('wh/1')).toBeUndefined()
    await c.webhookDeliveries('wh/1', { limit: 5 })
    expect(fault.requests.map((r) => [r.method, r.url, r.headers['content-type'] ?? null, r.body])).toEqual([
      ['POST', '/v1/webhooks', 'application/json', JSON.stringify({ url: 'https://hooks.example/a', secret: 'whsec_0123456789abcdef' })],
      ['GET', '/v1/webhooks', null, ''],
      ['PATCH', '/v1/webhooks/wh%2F1', 'application/json', JSON.stringify({ enabled: true })],
      ['DELETE', '/v1/webhooks/wh%2F1', null, ''],
      ['GET', '/v1/webhooks/wh%2F1/deliveries?limit=5', null, ''],
    ])
    expect(fault.requests.map((r) => r.headers['idempotency-key'] !== undefined)).toEqual([true, false, false, false, false])
  })

  it('changePages() asks for each next page with the cursor of the one before, and stops at the last', async () => {
    fault.script(ok({ changes: [1], next_cursor: 'c/2' }), ok({ changes: [2], next_cursor: 'c3' }), ok({ changes: [3], next_cursor: null }))
    const pages = []
    for await (const page of client().changePages({ states: ['GA', 'MN'], limit: 1 })) pages.push(page.changes)
    expect(pages).toEqual([[1], [2], [3]])
    expect(fault.requests.map((r) => r.url)).toEqual(['/v1/changes?limit=1&states=GA%2CMN', '/v1/changes?limit=1&cursor=c%2F2&states=GA%2CMN', '/v1/changes?limit=1&cursor=c3&states=GA%2CMN'])
  })
})

describe('retrying a streamed backfill', () => {
  it('is not done once rows were read: the 503 is thrown after one attempt', async () => {
    fault.script({ status: 503, body: errorEnvelope('SERVICE_UNAVAILABLE', 'down') }, ok(report))
    const { client: c, waits } = recordingClient(fault.url)
    await expect(c.backfill((async function* () { yield row(1) })())).rejects.toBeInstanceOf(ServiceError)
    expect(fault.requests).toHaveLength(1)
    expect(waits).toEqual([])
  })

  it('is done when the failed attempt read no row', async () => {
    let calls = 0
    const flaky: typeof fetch = async (input, init) => {
      if (++calls === 1) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') })
      return fetch(input, init)
    }
    fault.script(ok(report))
    const { client: c, waits } = recordingClient(fault.url, { fetch: flaky })
    await c.backfill((async function* () { yield row(1); yield row(2) })())
    expect(waits).toEqual([0.5])
    expect(fault.requests[0].body.split('\n').filter(Boolean)).toHaveLength(2)
  })

  it('releases a part-read source when the server answers before reading it all', async () => {
    let closed = false
    async function* endless() {
      try {
        for (let i = 0; ; i++) yield row(i)
      } finally {
        closed = true
      }
    }
    fault.script({ status: 401, body: errorEnvelope('UNAUTHORIZED', 'no'), skipRequestBody: true })
    await expect(client().backfill(endless())).rejects.toMatchObject({ status: 401 })
    expect(closed).toBe(true)
  })

  it("rejects with the source's own error when the iterable throws, without retrying", async () => {
    const broken = new Error('the export file is corrupt')
    fault.script(ok(report), ok(report))
    const { client: c, waits } = recordingClient(fault.url)
    await expect(
      c.backfill(
        (async function* () {
          yield row(1)
          throw broken
        })(),
      ),
    ).rejects.toBe(broken)
    expect(waits).toEqual([])
  })
})

describe('options', () => {
  it('are checked when the client is made', () => {
    expect(() => new TaxatlasClient({ baseUrl: 'localhost:8080' })).toThrow(/baseUrl/)
    expect(() => new TaxatlasClient({ baseUrl: fault.url, timeout: 0 })).toThrow(/timeout/)
    expect(() => new TaxatlasClient({ baseUrl: fault.url, maxRetries: -1 })).toThrow(/maxRetries/)
    expect(() => new TaxatlasClient({ baseUrl: fault.url, maxRetries: 1.5 })).toThrow(/maxRetries/)
    expect(() => new TaxatlasClient({ baseUrl: fault.url, authHeader: 'basic' as 'bearer' })).toThrow(/authHeader/)
  })

  it('a custom fetch receives every call', async () => {
    const seen: string[] = []
    const spy: typeof fetch = (input, init) => {
      seen.push(`${init?.method} ${String(input)}`)
      return fetch(input, init)
    }
    fault.script(ok())
    await new TaxatlasClient({ baseUrl: fault.url, fetch: spy }).health()
    expect(seen).toEqual([`GET ${fault.url}/healthz`])
  })
})
