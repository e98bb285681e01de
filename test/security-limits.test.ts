// Request size and time limits: a body over its route's limit is refused with 413 (declared by
// Content-Length or arriving chunked) and stores nothing; oversized headers and URLs get 431; a
// body must arrive within the request timeout, except a streamed backfill, cut only when it stalls
// (both timeouts set small here); the listener's header timeout is set. (A slow-header client cut
// off with 408 is shown on the wire by `make soak`, which has the minute Node's header timeout takes.)
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { API_ROUTES } from '../server/routes/index.ts'
import { envelopeProblems } from './support/reliability-envelope.ts'
import { readAccountState } from './support/reliability-fingerprint.ts'
import { rawRequest, type RawRequest } from './support/reliability-raw-http.ts'
import { startTestServer, type TestServer } from './support/server-harness.ts'
import { pacedRequest, slowBody } from './support/reliability-slow-client.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'

const JSON_LIMIT = 8 * 1024
const BACKFILL_JSON_LIMIT = 16 * 1024

let artifacts: { dir: string; id: string }
let server: TestServer
let key: string

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  server = await startTestServer({ artifactsDir: artifacts.dir, env: { TAXATLAS_JSON_BODY_LIMIT: String(JSON_LIMIT), TAXATLAS_BACKFILL_JSON_LIMIT: String(BACKFILL_JSON_LIMIT) } })
  key = (await server.createAccount('enterprise')).api_key
})
afterAll(async () => {
  await server?.close()
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

/** A JSON order padded past `bytes` with a long customer id. */
const oversized = (bytes: number) =>
  Buffer.from(JSON.stringify({ transaction_id: 'big-1', transaction_date: new Date().toISOString().slice(0, 10), to_zip: '30303', to_state: 'GA', amount: '1.00', customer_id: 'x'.repeat(bytes) }))

function chunked(bytes: Buffer): Buffer {
  const parts: Buffer[] = []
  for (let at = 0; at < bytes.length; at += 1_000) {
    const piece = bytes.subarray(at, at + 1_000)
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'))
  }
  return Buffer.concat([...parts, Buffer.from('0\r\n\r\n')])
}

/** Every route reading a JSON body, with the limit it holds (the backfill has its own). */
const bodyRoutes = () =>
  API_ROUTES.filter((r) => r.body || r.path.endsWith('/backfill')).map((route) => ({
    route,
    limit: route.path.endsWith('/backfill') ? BACKFILL_JSON_LIMIT : (route.bodyLimitBytes ?? JSON_LIMIT),
    target: route.path.replace(/:\w+/g, 'big-1'),
  }))

describe('request size', () => {
  it('a body over the limit of each route is refused with 413 in the route\'s error format, by Content-Length or chunked, and stores nothing', async () => {
    const before = await readAccountState(server.url, key)
    const routes = bodyRoutes()
    expect(routes.length).toBeGreaterThanOrEqual(6)
    for (const { route, limit, target } of routes) {
      const body = oversized(limit)
      const framings: [string, string, Buffer][] = [
        ['Content-Length', String(body.length), body],
        ['Transfer-Encoding', 'chunked', chunked(body)],
      ]
      for (const [name, value, bytes] of framings) {
        const request: RawRequest = { method: route.method, target, headers: [['Host', 'limits.test'], ['X-API-Key', key], ['Content-Type', 'application/json'], [name, value]], body: bytes }
        const response = await rawRequest(server.url, request)
        expect(response.status, `${route.method} ${route.path} (${name}): ${response.text.slice(0, 200)}`).toBe(413)
        expect(envelopeProblems(request, response)).toEqual([])
        expect(response.header('connection')).toBe('close')
      }
    }
    expect(await readAccountState(server.url, key)).toEqual(before)
  })

  it('a body just within the limit is read', async () => {
    const body = oversized(JSON_LIMIT - 400)
    expect(body.length).toBeLessThanOrEqual(JSON_LIMIT)
    const response = await fetch(`${server.url}/v1/portability/orders`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body })
    // Read whole and judged: the only problem is the customer id over 255 characters.
    expect(response.status).toBe(422)
    expect((await response.json()).detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(['body.customer_id'])
  })

  it('headers or a URL over 16 KB are refused with 431 in the envelope', async () => {
    for (const request of [
      { method: 'GET', target: '/v1/account', headers: [['Host', 'limits.test'], ['X-API-Key', key], ['X-Filler', 'f'.repeat(20_000)]] },
      { method: 'GET', target: `/v1/tax/ga?address=${'a'.repeat(20_000)}`, headers: [['Host', 'limits.test'], ['X-API-Key', key]] },
      { method: 'GET', target: '/healthz', headers: [['Host', 'limits.test'], ...Array.from({ length: 1_500 }, (_, i): [string, string] => [`X-Many-${i}`, 'v'])] },
    ] as RawRequest[]) {
      const response = await rawRequest(server.url, request)
      expect(response.status).toBe(431)
      expect(envelopeProblems(request, response)).toEqual([])
    }
  })
})

describe('request time', () => {
  const REQUEST_TIMEOUT_MS = 1_500
  const IDLE_TIMEOUT_MS = 1_000
  // Cut by these timeouts, not Node's own (a minute and more): the margin is what a busy machine
  // may add to a timer, not a measure of how promptly the cut comes.
  const NOT_NODES_OWN_MS = 30_000
  let timed: TestServer
  let timedKey: string
  beforeAll(async () => {
    timed = await startTestServer({ artifactsDir: artifacts.dir, env: { TAXATLAS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), TAXATLAS_BACKFILL_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS) } })
    timedKey = (await timed.createAccount('enterprise')).api_key
  })
  afterAll(() => timed?.close())

  const today = () => new Date().toISOString().slice(0, 10)
  const row = (i: number) => `${JSON.stringify({ transaction_id: `paced-${i}`, transaction_date: today(), to_zip: '30303', to_state: 'GA', amount: '1.00' })}\n`
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`
  /** A streamed backfill, one NDJSON row a piece: `rows` pieces, then the end, or nothing more when `stall`. */
  const pacedBackfill = (rows: number, everyMs: number, options: { stall?: boolean } = {}) =>
    pacedRequest(
      timed.url,
      `POST /v1/portability/transactions/backfill HTTP/1.1\r\nHost: timed.test\r\nX-API-Key: ${timedKey}\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
      (i) => (i < rows ? chunk(row(i)) : i === rows && !options.stall ? '0\r\n\r\n' : ''),
      everyMs,
    )
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))

  it('a streamed backfill that keeps sending outlives the request timeout; one that stalls is cut after the idle timeout', async () => {
    const progressing = pacedBackfill(16, 250)
    const stalled = pacedBackfill(2, 250, { stall: true })
    const [done, cut] = await Promise.all([progressing.outcome, stalled.outcome])

    expect(done.heldSeconds * 1000).toBeGreaterThan(2 * REQUEST_TIMEOUT_MS)
    expect(done.status, done.answer).toBe(200)
    expect(bodyOf(done.answer)).toMatchObject({ format: 'ndjson', received: 16, accepted: 16, rejected: 0 })

    expect(cut.status, cut.answer).toBe(408)
    expect(bodyOf(cut.answer).error).toMatchObject({ code: 'REQUEST_TIMEOUT', message: expect.stringMatching(/no part of the request body arrived for 1 s/i) })
    expect(cut.answer).toMatch(/\r\nConnection: close\r\n/i)
    expect(cut.heldSeconds * 1000).toBeGreaterThanOrEqual(IDLE_TIMEOUT_MS)
    expect(cut.heldSeconds * 1000).toBeLessThan(IDLE_TIMEOUT_MS + NOT_NODES_OWN_MS)
  })

  it('any other body must arrive within the request timeout, trickling or stalled, and is answered 408 in the envelope', async () => {
    const before = await readAccountState(timed.url, timedKey)
    const trickling = slowBody(timed.url, timedKey, 100)
    const stalled = pacedRequest(timed.url, `PUT /v1/portability/nexus HTTP/1.1\r\nHost: timed.test\r\nX-API-Key: ${timedKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"regions":`, () => '', 1_000)
    for (const outcome of await Promise.all([trickling.outcome, stalled.outcome])) {
      expect(outcome.status, outcome.answer).toBe(408)
      expect(bodyOf(outcome.answer).error).toMatchObject({ code: 'REQUEST_TIMEOUT', message: 'The request body took too long to arrive.' })
      expect(outcome.answer).toContain(`\r\nX-Request-Id: ${bodyOf(outcome.answer).error.support_reference}\r\n`)
      expect(outcome.heldSeconds * 1000).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS)
      expect(outcome.heldSeconds * 1000).toBeLessThan(REQUEST_TIMEOUT_MS + NOT_NODES_OWN_MS)
    }
    expect(await readAccountState(timed.url, timedKey)).toEqual(before)
  })

  it('the public listener cuts off slow headers (Node\'s headersTimeout is set)', () => {
    const port = Number(new URL(server.url).port)
    const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles()
    const listener = handles.find((h): h is http.Server => h instanceof http.Server && (h.address() as AddressInfo | null)?.port === port)
    expect(listener).toBeDefined()
    expect(listener!.headersTimeout).toBeGreaterThan(0)
    expect(listener!.headersTimeout).toBeLessThanOrEqual(60_000)
  })
})
