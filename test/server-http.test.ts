// The HTTP surface of a real server on port 0: public routes, the auth matrix, the error
// envelope for every status, request ids, headers, the access log, and OpenAPI validity/coverage.
import { rm } from 'node:fs/promises'
import net from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest'
import { FreshnessEnvelope, freshnessEnvelope } from '../snapshot-contract/manifest.ts'
import { createApp } from '../server/app.ts'
import { ErrorBody, ValidationErrorBody } from '../server/base/errors.ts'
import { memoryLogger } from '../server/base/logger.ts'
import { AccountBody } from '../server/routes/account.ts'
import { HealthBody } from '../server/routes/health.ts'
import { API_ROUTES } from '../server/routes/index.ts'
import { gateStore } from './support/store-gate.ts'
import { INVALID_KEY_MESSAGE } from '../server/access/credentials.ts'
import { envelopeProblems } from './support/reliability-envelope.ts'
import { rawRequest, type RawRequest } from './support/reliability-raw-http.ts'
import { pacedRequest } from './support/reliability-slow-client.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'
import { startTestServer, withKey, type TestServer } from './support/server-harness.ts'
import { heldRequests, testBoomRoute, testEchoRoute, testHeldRoute, testLookupRoute, testSelfWrittenRoute, testSlowReadRoute } from './support/server-test-routes.ts'

const routes = [...API_ROUTES, testLookupRoute, testEchoRoute, testBoomRoute, testSlowReadRoute, testHeldRoute, testSelfWrittenRoute]
let server: TestServer
let artifacts: { dir: string; id: string }

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  server = await startTestServer({ artifactsDir: artifacts.dir, routes })
})
afterAll(async () => {
  await server?.close()
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init)

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  const text = await response.text()
  const body = JSON.parse(text)
  expect(ErrorBody.safeParse(body).success).toBe(true)
  expect(body.error.code).toBe(code)
  expect(body.error.support_reference).toBe(response.headers.get('x-request-id'))
  expect(text).not.toMatch(/\bat .*\.ts:\d+/)
  return body
}

describe('public routes', () => {
  it('GET /healthz reports the served snapshot without a key', async () => {
    const response = await get('/healthz')
    expect(response.status).toBe(200)
    const body = HealthBody.parse(await response.json())
    expect(body).toMatchObject({ status: 'ok', snapshot_id: artifacts.id })
    expect(Number.isNaN(Date.parse(body.snapshot_loaded_at))).toBe(false)
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('GET /v1/freshness serves the spec 2.5 envelope with an ETag, a cache policy and 304s', async () => {
    const response = await get('/v1/freshness')
    expect(response.status).toBe(200)
    const body = FreshnessEnvelope.parse(await response.json())
    expect(body).toEqual(freshnessEnvelope(server.running.snapshots.current.manifest))
    expect(body.states.find((s) => s.code === 'ga')?.rows).toBeGreaterThan(0)
    const etag = response.headers.get('etag')!
    expect(etag).toMatch(/^".+"$/)
    expect(response.headers.get('cache-control')).toMatch(/max-age=3600/)

    const again = await get('/v1/freshness', { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    expect((await get('/v1/freshness', { headers: { 'If-None-Match': `W/${etag}` } })).status).toBe(304)
    expect((await get('/v1/freshness', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200)
  })

  it('every response carries a fresh request id and the security headers', async () => {
    const [a, b] = await Promise.all([get('/healthz'), get('/healthz')])
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/)
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'))
    for (const response of [a, b]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    }
  })
})

describe('headers of key routes', () => {
  it('a reply and a response its handler writes itself both carry the request id, security and rate-limit headers', async () => {
    const { api_key } = await server.createAccount('starter')
    for (const path of ['/v1/test-lookup/30303', '/test/self-written']) {
      const response = await get(path, withKey(api_key))
      expect(response.status, path).toBe(200)
      expect(response.headers.get('x-request-id'), path).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/)
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(response.headers.get('cache-control'), path).toBe('no-store')
      expect(response.headers.get('ratelimit-limit'), path).toMatch(/^\d+$/)
      expect(response.headers.get('ratelimit-remaining'), path).toMatch(/^\d+$/)
    }
    const written = await get('/test/self-written', withKey(api_key))
    expect(written.headers.get('content-type')).toBe('application/x-ndjson')
    expect(await written.text()).toBe('{"line":1}\n{"line":2}\n')
  })
})

describe('replies sent together at the end of a turn', () => {
  it('pipelined requests on one connection are answered in order; a client gone before its reply leaves the server answering', async () => {
    const names = ['first', 'second', 'third', 'fourth', 'fifth']
    const requests = names
      .map((name) => {
        const body = JSON.stringify({ name, count: 1 })
        return `POST /test/echo HTTP/1.1\r\nHost: turn.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
      })
      .join('')
    const socket = net.connect({ host: '127.0.0.1', port: Number(new URL(server.url).port) })
    let answer = ''
    socket.on('data', (chunk: Buffer) => void (answer += chunk.toString()))
    socket.write(requests)
    await expect.poll(() => (answer.match(/HTTP\/1\.1 200/g) ?? []).length).toBe(names.length)
    socket.destroy()
    expect([...answer.matchAll(/"name":"(\w+)"/g)].map((m) => m[1])).toEqual(names)

    // Gone at once: its reply, due at the end of the turn, finds no client.
    for (let i = 0; i < 20; i++) {
      const leaving = net.connect({ host: '127.0.0.1', port: Number(new URL(server.url).port) }, () => {
        leaving.end('GET /healthz HTTP/1.1\r\nHost: turn.test\r\n\r\n')
        leaving.destroy()
      })
      leaving.on('error', () => undefined)
    }
    await sleep(50)
    expect((await get('/healthz')).status).toBe(200)
  })
})

describe('closing a connection after its last response', () => {
  // Found by the fuzz test: GET /openapi.json with a 64 KB JSON body and Connection: close.
  it('a large answer to a request that came with a body the route does not read arrives whole', async () => {
    const expected = await (await get('/openapi.json')).text()
    for (const bodyBytes of [65_544, 300_000]) {
      const body = `{"a":"${'x'.repeat(bodyBytes - 8)}"}`
      const answer = await rawRequest(server.url, {
        method: 'GET',
        target: '/openapi.json',
        headers: [['Host', 'close.test'], ['Content-Type', 'application/json'], ['Content-Length', String(body.length)], ['Connection', 'close']],
        body,
      })
      expect(answer.status).toBe(200)
      expect(answer.header('connection')).toBe('close')
      expect(answer.body.length).toBe(Number(answer.header('content-length')))
      expect(answer.text).toBe(expected)
    }
  })
})

describe('authentication (spec 5)', () => {
  it('401 without a key, with the missing-credentials message', async () => {
    const body = await expectError(await get('/v1/account'), 401, 'UNAUTHORIZED')
    expect(body.error.message).toMatch(/^Missing credentials/)
    // A non-Bearer Authorization header is no key either.
    const basic = await expectError(await get('/v1/account', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } }), 401, 'UNAUTHORIZED')
    expect(basic.error.message).toMatch(/^Missing credentials/)
  })

  it('401 "Invalid X-API-Key." for a key that matches no account, in either header', async () => {
    for (const headers of [{ 'X-API-Key': 'tx_live_nope' }, { Authorization: 'Bearer tx_live_nope' }] as Record<string, string>[]) {
      const body = await expectError(await get('/v1/account', { headers }), 401, 'UNAUTHORIZED')
      expect(body.error.message).toBe(INVALID_KEY_MESSAGE)
    }
  })

  it('accepts the key in X-API-Key and in Authorization: Bearer', async () => {
    const { api_key, account_id } = await server.createAccount('starter', 'Acme')
    const forms: Record<string, string>[] = [{ 'X-API-Key': api_key }, { Authorization: `Bearer ${api_key}` }, { authorization: `bearer ${api_key}` }]
    for (const headers of forms) {
      const response = await get('/v1/account', { headers })
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-store')
      const body = AccountBody.parse(await response.json())
      expect(body).toMatchObject({ account_id, name: 'Acme', tier: 'starter', trial_ends_at: null })
      expect(body.quota).toMatchObject({ limit: 10_000, used: 0, remaining: 10_000 })
    }
  })

  it('new keys work at once, old keys until revoked, revoked keys never', async () => {
    const { api_key: first, account_id, key_id } = await server.createAccount('growth')
    const created = await server.admin('POST', '/admin/keys', { account_id })
    expect(created.status).toBe(201)
    const { api_key: second } = await created.json()
    expect((await get('/v1/account', withKey(second))).status).toBe(200)
    expect((await get('/v1/account', withKey(first))).status).toBe(200)

    expect((await server.admin('POST', `/admin/keys/${key_id}/revoke`)).status).toBe(200)
    const body = await expectError(await get('/v1/account', withKey(first)), 401, 'UNAUTHORIZED')
    expect(body.error.message).toBe(INVALID_KEY_MESSAGE)
    expect((await get('/v1/account', withKey(second))).status).toBe(200)
  })

  it('public routes need no key', async () => {
    for (const path of ['/healthz', '/v1/freshness', '/openapi.json']) expect((await get(path)).status).toBe(200)
  })
})

describe('errors: every status is the JSON envelope', () => {
  it('404 NOT_FOUND for an unknown route', async () => {
    await expectError(await get('/v2/nothing?x=1'), 404, 'NOT_FOUND')
  })

  it('405 METHOD_NOT_ALLOWED with Allow for a known path', async () => {
    const response = await get('/v1/freshness', { method: 'DELETE' })
    await expectError(response, 405, 'METHOD_NOT_ALLOWED')
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('400 MALFORMED_JSON for a body that is not JSON', async () => {
    const body = await expectError(
      await get('/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name": "ab",' }),
      400,
      'MALFORMED_JSON',
    )
    expect(body.error.message).toMatch(/not valid JSON/)
  })

  it('a JSON body is read the same whether it comes with its headers, after them, or in pieces', async () => {
    const body = JSON.stringify({ name: 'pieces', count: 3 })
    const head = `POST /test/echo HTTP/1.1\r\nHost: body.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`
    const whole = await rawRequest(server.url, Buffer.from(head + body))
    expect(whole.status).toBe(200)
    expect(JSON.parse(whole.text)).toEqual({ name: 'pieces', count: 3 })
    // Headers alone first, then the body in three writes 20 ms apart.
    const pieces = [body.slice(0, 5), body.slice(5, 12), body.slice(12)]
    const paced = await pacedRequest(server.url, head, (i) => pieces[i] ?? '', 20).outcome
    expect(paced.status).toBe(200)
    expect(JSON.parse(paced.answer.slice(paced.answer.indexOf('\r\n\r\n') + 4))).toEqual({ name: 'pieces', count: 3 })
  })

  it('413 PAYLOAD_TOO_LARGE past the route body limit', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(4096), count: 1 })
    await expectError(await get('/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }), 413, 'PAYLOAD_TOO_LARGE')
  })

  it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not sent as JSON', async () => {
    await expectError(await get('/test/echo', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }), 415, 'UNSUPPORTED_MEDIA_TYPE')
  })

  it('422 with detail [{loc, msg, type, input?, ctx?}] for invalid body, path and query values', async () => {
    const response = await get('/test/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a', count: 'many' }) })
    const body = await expectError(response, 422, 'VALIDATION_ERROR')
    expect(ValidationErrorBody.safeParse(body).success).toBe(true)
    expect(body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'name'], type: 'too_small', input: 'a', ctx: expect.objectContaining({ minimum: 2 }) }),
        expect.objectContaining({ loc: ['body', 'count'], type: 'invalid_type', input: 'many' }),
      ]),
    )
    for (const item of body.detail) expect(typeof item.msg).toBe('string')

    const missing = await expectError(await get('/test/echo', { method: 'POST' }), 422, 'VALIDATION_ERROR')
    expect(missing.detail[0].loc).toEqual(['body'])

    const { api_key } = await server.createAccount('starter')
    const lookup = await expectError(await get('/v1/test-lookup/12?miss=2', withKey(api_key)), 422, 'VALIDATION_ERROR')
    expect(lookup.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([['path', 'zip'], ['query', 'miss']])
  })

  it('422 echoes a rejected input only when it is small: long strings are cut, deep or large values left out', async () => {
    const { api_key } = await server.createAccount('enterprise')
    const post = (body: string) => get('/v1/portability/orders', { method: 'POST', headers: { 'X-API-Key': api_key, 'content-type': 'application/json' }, body })
    const order = { transaction_id: 'echo-1', transaction_date: '2026-05-14', to_zip: '30303', to_state: 'GA', amount: '1.00' }
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`
    const shaped = JSON.stringify({ ...order, to_state: { code: 'GA' }, to_city: Array.from({ length: 100 }, (_, i) => i) }).replace(/}$/, `,"shipping":${deep}}`)
    const detail: { loc: string[]; input?: unknown }[] = (await expectError(await post(shaped), 422, 'VALIDATION_ERROR')).detail
    const at = (field: string) => detail.find((d) => d.loc.join('.') === `body.${field}`)!
    expect(at('to_state').input).toEqual({ code: 'GA' })
    expect(at('to_city')).toBeDefined()
    expect(at('to_city')).not.toHaveProperty('input')
    expect(at('shipping')).toBeDefined()
    expect(at('shipping')).not.toHaveProperty('input')

    const long = 'x'.repeat(5_000)
    const meaning: { loc: string[]; input?: unknown }[] = (await expectError(await post(JSON.stringify({ ...order, transaction_id: long })), 422, 'VALIDATION_ERROR')).detail
    expect(meaning).toMatchObject([{ loc: ['body', 'transaction_id'], input: `${long.slice(0, 200)}…` }])
  })

  it('a deeply nested body never breaks the answer, whatever refuses it', async () => {
    const { api_key } = await server.createAccount('enterprise')
    const nested = (depth: number, objects: boolean) => (objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`)
    const inField = (depth: number) => `{"transaction_id":"deep-1","to_zip":${nested(depth, false)}}`
    // NDJSON lines stay under the 64 KiB line limit, so each is parsed and judged.
    const lines = [inField(10_000), nested(30_000, false), nested(10_000, true)].join('\n')
    for (const route of API_ROUTES.filter((r) => r.body || r.path.endsWith('/backfill'))) {
      const target = route.path.replace(/:\w+/g, 'deep-1')
      const bodies: [string, string][] = [
        ['application/json', nested(100_000, false)],
        ['application/json', nested(50_000, true)],
        ['application/json', inField(100_000)],
        ['application/json', `[${inField(100_000)},${nested(100_000, false)}]`],
        ['application/x-ndjson', lines],
      ]
      for (const credentials of [[['X-API-Key', api_key]], []] as [string, string][][]) {
        for (const [type, body] of bodies) {
          const request: RawRequest = { method: route.method, target, headers: [['Host', 'deep.test'], ...credentials, ['Content-Type', type], ['Content-Length', String(Buffer.byteLength(body))]], body }
          const response = await rawRequest(server.url, request)
          expect(envelopeProblems(request, response), `${route.method} ${target} ${type} ${body.slice(0, 40)}: ${response.status} ${response.text.slice(0, 200)}`).toEqual([])
        }
      }
    }
  })

  it('requests Node refuses or would answer itself before routing get the envelope, on the public and the admin listener', async () => {
    const cases: [string, RawRequest | Buffer, number, string][] = [
      ['an Expect other than 100-continue', { method: 'POST', target: '/healthz', headers: [['Host', 'x'], ['Expect', 'fly-me-to-the-moon'], ['Content-Length', '2']], body: '{}' }, 417, 'EXPECTATION_FAILED'],
      ['HTTP/1.1 without Host', { method: 'GET', target: '/healthz' }, 400, 'BAD_REQUEST'],
      ['CONNECT', { method: 'CONNECT', target: 'example.com:443', headers: [['Host', 'example.com:443']] }, 405, 'METHOD_NOT_ALLOWED'],
      ['CONNECT to a path', { method: 'CONNECT', target: '/taxjar/v2/nexus/regions', headers: [['Host', 'x']] }, 405, 'METHOD_NOT_ALLOWED'],
      ['not HTTP', Buffer.from('NOT HTTP AT ALL\r\n\r\n'), 400, 'BAD_REQUEST'],
      ['oversized headers', { method: 'GET', target: '/healthz', headers: [['Host', 'x'], ['X-Big', 'a'.repeat(20_000)]] }, 431, 'HEADERS_TOO_LARGE'],
    ]
    for (const [listener, url] of [['public', server.url], ['admin', server.running.adminUrl]]) {
      for (const [name, request, status, code] of cases) {
        const response = await rawRequest(url, request)
        const what = `${listener}, ${name}: ${response.status} ${response.text}`
        expect(response.status, what).toBe(status)
        expect(JSON.parse(response.text).error.code, what).toBe(code)
        expect(response.header('connection'), what).toBe('close')
        const sent = Buffer.isBuffer(request) ? { method: 'NOT', target: 'HTTP' } : request
        expect(envelopeProblems(sent, response, { taxjarPaths: listener === 'public' }), what).toEqual([])
        if (sent.method === 'CONNECT') expect(response.header('allow'), what).toBe('')
      }
    }
    // 100-continue is still honoured.
    const body = '{"name":"ab","count":1}'
    const continued = await rawRequest(server.url, { method: 'POST', target: '/test/echo', headers: [['Host', 'x'], ['Expect', '100-Continue'], ['Content-Type', 'application/json'], ['Content-Length', String(body.length)]], body })
    expect(continued.status, continued.text).toBe(200)
  })

  it('500 INTERNAL_ERROR hides the message and stack, and logs them under the support reference', async () => {
    const response = await get('/test/boom')
    const body = await expectError(response, 500, 'INTERNAL_ERROR')
    expect(body.error.message).toBe('internal error')
    const logged = server.logs.find((e) => e.event === 'request_failed' && e.support_reference === body.error.support_reference)
    expect(logged?.error).toMatch(/secret internal detail/)
  })
})

describe('access log', () => {
  it('one JSON line per request with route, status, duration, support reference, account — never the key', async () => {
    const { api_key, account_id } = await server.createAccount('starter')
    const response = await get('/v1/account?api_key=leak', { headers: { Authorization: `Bearer ${api_key}` } })
    const requestId = response.headers.get('x-request-id')
    await response.text()
    await expect.poll(() => server.logs.find((e) => e.event === 'request' && e.support_reference === requestId)).toBeDefined()
    const line = server.logs.find((e) => e.event === 'request' && e.support_reference === requestId)!
    expect(line).toMatchObject({ method: 'GET', route: '/v1/account', path: '/v1/account', status: 200, account_id })
    expect(typeof line.duration_ms).toBe('number')
    const everything = JSON.stringify(server.logs)
    expect(everything).not.toContain(api_key)
    expect(everything).not.toContain('leak')
  })
})

describe('access log timing', () => {
  const linesOf = (requestId: string | null) => server.logs.filter((e) => e.event === 'request' && e.support_reference === requestId)

  it('writes exactly one line per request, answered at once (a 404) or later (a key route waiting on the store)', async () => {
    const { api_key } = await server.createAccount('starter')
    const answers = await Promise.all([get('/no/such/route'), get('/v1/account', withKey(api_key))])
    const ids = await Promise.all(answers.map(async (response) => (await response.text(), response.headers.get('x-request-id'))))
    await expect.poll(() => ids.map((id) => linesOf(id).length)).toEqual([1, 1])
    await sleep(50)
    expect(ids.map((id) => linesOf(id).map((line) => [line.status, line.aborted ?? false]))).toEqual([[[404, false]], [[200, false]]])
  })

  it('marks a request the client left before its answer as aborted', async () => {
    const before = server.logs.length
    const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1')
    socket.on('error', () => {})
    onTestFinished(() => heldRequests.splice(0).forEach((release) => release()))
    socket.write('GET /test/held HTTP/1.1\r\nHost: x\r\n\r\n')
    // In its handler, not answered yet, when the client leaves.
    await expect.poll(() => heldRequests.length).toBe(1)
    socket.destroy()
    await expect.poll(() => server.logs.slice(before).find((e) => e.event === 'request' && e.path === '/test/held')).toMatchObject({ aborted: true, status: null })
  })
})

describe('OpenAPI', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const response = await get('/openapi.json')
    expect(response.status).toBe(200)
    const document = await response.json()
    expect(document.openapi).toBe('3.1.0')
    const validator = new Validator()
    const result = await validator.validate(document)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(response.headers.get('etag')).toBeTruthy()
    // The validator checks shapes; every $ref must also land on something.
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1])
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of refs) {
      const target = ref.split('/').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document)
      expect(target, ref).toBeDefined()
    }
  })

  it('describes every route the server answers, its parameters, bodies and error responses', async () => {
    const document = await (await get('/openapi.json')).json()
    // The router's own table, not the registry: what the server would actually answer.
    const app = createApp({
      snapshots: server.running.snapshots,
      store: gateStore(new Promise(() => {})),
      settings: { tiers: {} as never, jsonBodyLimit: 1 },
      logger: memoryLogger(),
      routes,
    }) as unknown as { handlers: Record<string, Record<string, unknown>> }
    const answered = Object.entries(app.handlers).flatMap(([method, patterns]) =>
      Object.keys(patterns).map((pattern) => `${method.toLowerCase()} ${pattern.replace(/:(\w+)/g, '{$1}')}`),
    )
    // HEAD answers every GET and is described once, in info.description, not as an operation of its own.
    const heads = answered.filter((entry) => entry.startsWith('head '))
    expect(heads.map((entry) => entry.replace(/^head /, 'get ')).sort()).toEqual(answered.filter((entry) => entry.startsWith('get ')).sort())
    expect(document.info.description).toContain('Every GET operation also answers HEAD')
    const described = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    )
    expect(answered.filter((entry) => !entry.startsWith('head ')).sort()).toEqual(described.sort())
    expect(described).toEqual(expect.arrayContaining(['get /healthz', 'get /v1/freshness', 'get /openapi.json', 'get /v1/account']))

    const account = document.paths['/v1/account'].get
    expect(account.security).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }])
    expect(Object.keys(account.responses).sort()).toEqual(['200', '401', '429', '500', '503'])
    expect(document.paths['/healthz'].get.security).toEqual([])

    const lookup = document.paths['/v1/test-lookup/{zip}'].get
    expect(lookup.parameters).toEqual([
      expect.objectContaining({ name: 'zip', in: 'path', required: true }),
      expect.objectContaining({ name: 'miss', in: 'query', required: false }),
    ])
    expect(Object.keys(lookup.responses).sort()).toEqual(['200', '401', '402', '422', '429', '500', '503'])
    const echo = document.paths['/test/echo'].post
    expect(echo.requestBody.required).toBe(true)
    expect(Object.keys(echo.responses).sort()).toEqual(['200', '400', '413', '415', '422', '500'])
    expect(document.components.responses.ValidationFailed.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationError' })
    expect(document.components.schemas.Error.properties.error.required).toEqual(['code', 'message', 'support_reference'])
  })

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = (await get('/openapi.json')).headers.get('etag')!
    expect((await get('/openapi.json', { headers: { 'If-None-Match': etag } })).status).toBe(304)
  })
})
