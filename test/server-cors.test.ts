// Browser access through a real server (port 0, a real snapshot, a real store): CORS as
// TAXATLAS_CORS_ORIGINS sets it — same origin only by default, listed origins on every route, `*`
// on the public routes only — preflights answered or refused in the error envelope, the CORS
// headers kept on errors and on lookups answered from the reply cache, Vary where an answer
// depends on the Origin, HEAD on every GET route, and OPTIONS with Allow.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ErrorBody } from '../server/base/errors.ts'
import { SettingsError } from '../server/base/settings-error.ts'
import { API_ROUTES } from '../server/routes/index.ts'
import { openApiRoute } from '../server/routes/openapi.ts'
import { readServerSettings } from '../server/settings.ts'
import { rawRequest, type RawResponse } from './support/reliability-raw-http.ts'
import { startTestServer, type TestServer } from './support/server-harness.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'

const SHOP = 'https://shop.example'
const ELSEWHERE = 'https://elsewhere.example'

let artifacts: { dir: string; id: string }
/** default settings: same origin only */
let closed: TestServer
/** TAXATLAS_CORS_ORIGINS = SHOP and * */
let open: TestServer
let closedKey: string
let openKey: string

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  closed = await startTestServer({ artifactsDir: artifacts.dir })
  open = await startTestServer({ artifactsDir: artifacts.dir, env: { TAXATLAS_CORS_ORIGINS: `${SHOP}/, *` } })
  closedKey = (await closed.createAccount('enterprise')).api_key
  openKey = (await open.createAccount('enterprise')).api_key
})
afterAll(async () => {
  await closed?.close()
  await open?.close()
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

type Call = { method?: string; origin?: string; key?: string; headers?: [string, string][] }

function call(server: TestServer, target: string, { method = 'GET', origin, key, headers = [] }: Call = {}): Promise<RawResponse> {
  const host = new URL(server.url).host
  const sent: [string, string][] = [['Host', host], ['Connection', 'close'], ...headers]
  if (origin) sent.push(['Origin', origin])
  if (key) sent.push(['X-API-Key', key])
  return rawRequest(server.url, { method, target, headers: sent })
}

/** The error envelope of a refusal, its support reference the X-Request-Id. */
function envelope(response: RawResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status)
  expect(response.header('content-type')).toBe('application/json; charset=utf-8')
  const { error } = ErrorBody.parse(JSON.parse(response.text))
  expect(error.code).toBe(code)
  expect(error.support_reference).toBe(response.header('x-request-id'))
  return error
}

const varyOf = (response: RawResponse) => (response.header('vary') ?? '').split(',').map((name) => name.trim().toLowerCase())

describe('same origin only (the default)', () => {
  it('adds no CORS header to a request without an Origin, nor to one from its own origin', async () => {
    for (const origin of [undefined, closed.url]) {
      const freshness = await call(closed, '/v1/freshness', { origin })
      expect(freshness.status).toBe(200)
      const lookup = await call(closed, '/v1/tax/ga?zip=30303', { origin, key: closedKey })
      expect(lookup.status).toBe(200)
      for (const response of [freshness, lookup]) {
        expect(response.header('access-control-allow-origin')).toBeUndefined()
        expect(response.header('vary')).toBeUndefined()
      }
    }
  })

  it('refuses a page on another origin in the error envelope it can read, public routes included', async () => {
    for (const [target, key] of [['/v1/freshness', undefined], ['/healthz', undefined], ['/v1/tax/ga?zip=30303', closedKey]] as const) {
      const response = await call(closed, target, { origin: ELSEWHERE, key })
      const error = envelope(response, 403, 'CORS_NOT_ALLOWED')
      expect(error.message).toContain(ELSEWHERE)
      expect(error.message).toContain('TAXATLAS_CORS_ORIGINS')
      expect(response.header('access-control-allow-origin')).toBe(ELSEWHERE)
      expect(response.header('cache-control')).toBe('no-store')
      expect(varyOf(response)).toContain('origin')
    }
  })

  it('refuses its preflight', async () => {
    const response = await call(closed, '/v1/tax/ga', { method: 'OPTIONS', origin: ELSEWHERE, headers: [['Access-Control-Request-Method', 'GET'], ['Access-Control-Request-Headers', 'x-api-key']] })
    envelope(response, 403, 'CORS_NOT_ALLOWED')
    expect(response.header('access-control-allow-methods')).toBeUndefined()
  })
})

describe('listed origins, and * for the public routes', () => {
  it('lets any origin read the public routes, with ACAO * and the headers it may read', async () => {
    for (const target of ['/v1/freshness', '/healthz', '/openapi.json']) {
      const response = await call(open, target, { origin: ELSEWHERE })
      expect(response.status, target).toBe(200)
      expect(response.header('access-control-allow-origin')).toBe('*')
      expect(response.header('access-control-expose-headers')).toContain('X-Request-Id')
      expect(response.header('access-control-expose-headers')).toContain('ETag')
    }
  })

  it('marks public answers Vary: Origin, with or without an Origin (a shared cache must not mix them up)', async () => {
    for (const origin of [undefined, SHOP, ELSEWHERE]) expect(varyOf(await call(open, '/v1/freshness', { origin }))).toContain('origin')
  })

  it('refuses an unlisted origin on a route that takes a key, naming why * does not open it', async () => {
    const response = await call(open, '/v1/account', { origin: ELSEWHERE, key: openKey })
    const error = envelope(response, 403, 'CORS_NOT_ALLOWED')
    expect(error.message).toContain('`*` opens only the public routes')
  })

  it('lets a listed origin call a lookup, from the handler and from the reply cache alike', async () => {
    const target = `/v1/tax/ga?zip=30303&as_of=${new Date().toISOString().slice(0, 10)}`
    const first = await call(open, target, { origin: SHOP, key: openKey })
    const repeat = await call(open, target, { origin: SHOP, key: openKey })
    const plain = await call(open, target, { key: openKey })
    for (const response of [first, repeat, plain]) expect(response.status).toBe(200)
    expect(repeat.text).toBe(first.text)
    for (const response of [first, repeat]) {
      expect(response.header('access-control-allow-origin')).toBe(SHOP)
      expect(varyOf(response)).toContain('origin')
      expect(response.header('access-control-expose-headers')).toContain('RateLimit-Remaining')
      expect(response.header('x-service-mode')).toBe('simple')
    }
    // The cache keeps the body, not the CORS headers of whoever asked first.
    expect(plain.header('access-control-allow-origin')).toBeUndefined()
  })

  it('keeps the CORS headers on errors, so the page can read them', async () => {
    const response = await call(open, '/v1/tax/ga?zip=30303', { origin: SHOP, key: 'tx_live_not_a_key' })
    expect(envelope(response, 401, 'UNAUTHORIZED').message).toBe('Invalid X-API-Key.')
    expect(response.header('access-control-allow-origin')).toBe(SHOP)
    const missing = await call(open, '/v1/no/such/route', { origin: SHOP })
    envelope(missing, 404, 'NOT_FOUND')
    expect(missing.header('access-control-allow-origin')).toBe(SHOP)
  })

  it('answers a preflight from a listed origin with the methods and headers it may use', async () => {
    const response = await call(open, '/v1/tax/ga', { method: 'OPTIONS', origin: SHOP, headers: [['Access-Control-Request-Method', 'GET'], ['Access-Control-Request-Headers', 'x-api-key, if-none-match']] })
    expect(response.status).toBe(204)
    expect(response.body.length).toBe(0)
    expect(response.header('access-control-allow-origin')).toBe(SHOP)
    expect(response.header('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS')
    expect(response.header('access-control-allow-headers')).toContain('x-api-key')
    expect(response.header('access-control-max-age')).toBe('600')
    expect(varyOf(response)).toEqual(['origin', 'access-control-request-method', 'access-control-request-headers'])
    const post = await call(open, '/v1/portability/orders', { method: 'OPTIONS', origin: SHOP, headers: [['Access-Control-Request-Method', 'POST'], ['Access-Control-Request-Headers', 'content-type, idempotency-key, authorization']] })
    expect(post.status).toBe(204)
    expect(post.header('access-control-allow-methods')).toBe('POST, OPTIONS')
  })

  it('answers a preflight for a public route from any origin', async () => {
    const response = await call(open, '/v1/freshness', { method: 'OPTIONS', origin: ELSEWHERE, headers: [['Access-Control-Request-Method', 'GET']] })
    expect(response.status).toBe(204)
    expect(response.header('access-control-allow-origin')).toBe('*')
  })

  it('refuses preflights in the envelope: an unlisted origin on a key route, a method the path lacks, a header not accepted, a path no route has', async () => {
    const preflight = (target: string, origin: string, method: string, headers?: string) =>
      call(open, target, { method: 'OPTIONS', origin, headers: [['Access-Control-Request-Method', method], ...(headers ? [['Access-Control-Request-Headers', headers] as [string, string]] : [])] })
    envelope(await preflight('/v1/tax/ga', ELSEWHERE, 'GET', 'x-api-key'), 403, 'CORS_NOT_ALLOWED')
    const wrongMethod = await preflight('/v1/tax/ga', SHOP, 'DELETE')
    envelope(wrongMethod, 405, 'METHOD_NOT_ALLOWED')
    expect(wrongMethod.header('allow')).toBe('GET, HEAD, OPTIONS')
    const header = envelope(await preflight('/v1/tax/ga', SHOP, 'GET', 'x-api-key, x-tracking'), 403, 'CORS_NOT_ALLOWED')
    expect(header.message).toContain('x-tracking')
    envelope(await preflight('/v1/nothing', SHOP, 'GET'), 404, 'NOT_FOUND')
  })
})

describe('the setting', () => {
  it('refuses a value that is not a list of origins, naming the variable and the entry', () => {
    for (const value of ['shop.example.com', 'https://shop.example/path', 'ftp://shop.example', '*.example.com']) {
      let thrown: unknown
      try {
        readServerSettings({ TAXATLAS_CORS_ORIGINS: value })
      } catch (error) {
        thrown = error
      }
      expect(thrown, value).toBeInstanceOf(SettingsError)
      expect((thrown as Error).message).toContain('TAXATLAS_CORS_ORIGINS')
      expect((thrown as Error).message).toContain(value)
    }
  })
})

describe('HEAD and OPTIONS', () => {
  /** A plausible target of each GET route: its parameters filled in, a ZIP for the lookups. */
  const getTargets = () =>
    [...API_ROUTES, openApiRoute(API_ROUTES)]
      .filter((route) => route.method === 'GET')
      .map((route) => {
        const path = route.path.replace(':state', 'ga').replace(':zip', '30303').replace(/:\w+/g, 'no-such-id')
        return route.path.startsWith('/v1/tax/') ? `${path}?zip=30303` : path
      })

  it('every GET route answers HEAD with the status and headers of its GET, and no body', async () => {
    const targets = getTargets()
    expect(targets.length).toBeGreaterThan(8)
    for (const target of targets) {
      const get = await call(closed, target, { key: closedKey })
      const head = await call(closed, target, { method: 'HEAD', key: closedKey })
      expect(head.status, target).toBe(get.status)
      expect(head.body.length, target).toBe(0)
      for (const name of ['content-type', 'content-length', 'cache-control', 'etag', 'x-service-mode']) expect(head.header(name), `${target} ${name}`).toBe(get.header(name))
    }
  })

  it('OPTIONS lists the methods of a path; other methods are refused with the same list', async () => {
    const plain = await call(closed, '/v1/tax/ga', { method: 'OPTIONS' })
    expect(plain.status).toBe(204)
    expect(plain.header('allow')).toBe('GET, HEAD, OPTIONS')
    const orders = await call(closed, '/v1/portability/orders', { method: 'OPTIONS' })
    expect(orders.header('allow')).toBe('POST, OPTIONS')
    const refused = await call(closed, '/healthz', { method: 'DELETE' })
    envelope(refused, 405, 'METHOD_NOT_ALLOWED')
    expect(refused.header('allow')).toBe('GET, HEAD, OPTIONS')
    envelope(await call(closed, '/no/such/path', { method: 'OPTIONS' }), 404, 'NOT_FOUND')
  })
})
