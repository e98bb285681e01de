// Every answer — success or error, of every route, of paths no route matches, of requests Node
// refuses before routing, and of the admin listener — carries X-Content-Type-Options: nosniff and
// an X-Request-Id; every body is JSON sent as application/json; charset=utf-8; every error is
// marked Cache-Control: no-store.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { readEndpointFile } from '../server/admin/endpoint-file.ts'
import { API_ROUTES } from '../server/routes/index.ts'
import { openApiRoute } from '../server/routes/openapi.ts'
import { JSON_TYPE } from './support/reliability-envelope.ts'
import { rawRequest, type RawRequest, type RawResponse } from './support/reliability-raw-http.ts'
import { startTestServer, type TestServer } from './support/server-harness.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'

const TIERS = JSON.stringify({ trial: { lookup_quota: 1 }, growth: { rate_per_second: 1, burst: 1 } })

let artifacts: { dir: string; id: string }
let server: TestServer
let key: string
let token: string

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  // Invalid keys by the dozen from one address: not throttled here (reliability-security tests that).
  server = await startTestServer({ artifactsDir: artifacts.dir, env: { TAXATLAS_TIERS: TIERS, TAXATLAS_JSON_BODY_LIMIT: '4096', TAXATLAS_AUTH_FAILURE_BURST: '1000000' } })
  key = (await server.createAccount('enterprise')).api_key
  token = (await readEndpointFile(server.storePath))!.token
})
afterAll(async () => {
  await server?.close()
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

function headerProblems(response: RawResponse): string[] {
  const problems: string[] = []
  if (response.header('x-content-type-options') !== 'nosniff') problems.push(`nosniff: ${response.header('x-content-type-options')}`)
  if (!response.header('x-request-id')) problems.push('no X-Request-Id')
  if (response.body.length > 0) {
    if (response.header('content-type') !== JSON_TYPE) problems.push(`Content-Type: ${response.header('content-type')}`)
    try {
      JSON.parse(response.text)
    } catch {
      problems.push(`not JSON: ${response.text.slice(0, 100)}`)
    }
  }
  if (response.status >= 400 && response.header('cache-control') !== 'no-store') problems.push(`Cache-Control: ${response.header('cache-control')}`)
  return problems
}

const host: [string, string] = ['Host', 'headers.test']
const withBody = (request: RawRequest, type: string, body: string): RawRequest => ({
  ...request,
  headers: [...(request.headers ?? []), ['Content-Type', type], ['Content-Length', String(Buffer.byteLength(body))]],
  body,
})

/** For one route: a plausible call, then the same without a key, with a bad key, with another method, with bad bodies, HEAD. */
function variants(method: string, path: string, hasBody: boolean): RawRequest[] {
  const target = `${path.replace(':state', 'ga').replace(/:\w+/g, 'fz-1')}${method === 'GET' ? '?zip=30303' : ''}`
  const keyed: RawRequest = { method, target, headers: [host, ['X-API-Key', key]] }
  const order = JSON.stringify({ transaction_id: 'h-1', transaction_date: new Date().toISOString().slice(0, 10), to_zip: '30303', to_state: 'GA', amount: '1.00' })
  const list: RawRequest[] = [
    hasBody ? withBody(keyed, 'application/json', order) : keyed,
    { method, target, headers: [host] },
    { method, target, headers: [host, ['X-API-Key', 'tx_live_wrong']] },
    { method: method === 'DELETE' ? 'PATCH' : 'DELETE', target, headers: [host, ['X-API-Key', key]] },
    { method: 'HEAD', target, headers: [host, ['X-API-Key', key]] },
    { method, target: `${target}${target.includes('?') ? '&' : '?'}lat=x&as_of=2026-02-30&band=NaN`, headers: [host, ['X-API-Key', key]] },
  ]
  if (hasBody) {
    list.push(withBody(keyed, 'application/json', '{"a":'), withBody(keyed, 'text/plain', order), withBody(keyed, 'application/json', JSON.stringify({ a: 'x'.repeat(5_000) })), withBody(keyed, 'application/json', '[1,2]'))
  }
  return list
}

describe('response headers', () => {
  it('every answer of every route carries nosniff, a request id, JSON bodies as JSON, and no-store on errors', async () => {
    const routes = [...API_ROUTES, openApiRoute(API_ROUTES)]
    const requests: RawRequest[] = routes.flatMap((route) => variants(route.method, route.path, Boolean(route.body) || route.path.endsWith('/backfill')))
    requests.push(
      { method: 'GET', target: '/no/such/route', headers: [host] },
      { method: 'GET', target: '/taxjar/v2/no/such/route', headers: [host, ['X-API-Key', key]] },
      { method: 'GET', target: '/v1/freshness', headers: [host, ['If-None-Match', '*']] },
      { method: 'GET', target: '/healthz', headers: [host, ['X-Filler', 'f'.repeat(20_000)]] },
      { method: 'GET', target: '/healthz', headers: [host, ['Bad Header', 'x']] },
      { method: 'BREW', target: '/healthz', headers: [host] },
    )
    const statuses = new Set<number>()
    for (const request of requests) {
      const response = await rawRequest(server.url, { ...request, headers: [...(request.headers ?? []), ['Connection', 'close']] })
      statuses.add(response.status)
      expect(headerProblems(response), `${request.method} ${request.target.slice(0, 80)} → ${response.status}`).toEqual([])
    }
    // 402 and 429 from accounts at their limits, 304 from a matching ETag.
    const trial = (await server.createAccount('trial')).api_key
    const growth = (await server.createAccount('growth')).api_key
    const etag = (await fetch(`${server.url}/v1/freshness`)).headers.get('etag')!
    for (const request of [
      { method: 'GET', target: '/v1/tax/ga?zip=30303', headers: [host, ['X-API-Key', trial]] },
      { method: 'GET', target: '/v1/tax/ga?zip=30303', headers: [host, ['X-API-Key', trial]] },
      { method: 'GET', target: '/v1/account', headers: [host, ['X-API-Key', growth]] },
      { method: 'GET', target: '/v1/account', headers: [host, ['X-API-Key', growth]] },
      { method: 'GET', target: '/v1/freshness', headers: [host, ['If-None-Match', etag]] },
    ] as RawRequest[]) {
      const response = await rawRequest(server.url, request)
      statuses.add(response.status)
      expect(headerProblems(response), `${request.target} → ${response.status}`).toEqual([])
    }
    for (const status of [200, 201, 304, 400, 401, 402, 404, 405, 413, 415, 422, 429, 431]) expect(statuses, String(status)).toContain(status)
  })

  it('so does every answer of the admin listener', async () => {
    const admin = server.running.adminUrl
    const statuses = new Set<number>()
    for (const request of [
      { method: 'GET', target: '/admin/ping', headers: [host, ['X-Admin-Token', token]] },
      { method: 'GET', target: '/admin/accounts', headers: [host] },
      { method: 'GET', target: '/admin/accounts', headers: [host, ['X-Admin-Token', 'wrong']] },
      { method: 'DELETE', target: '/admin/accounts', headers: [host, ['X-Admin-Token', token]] },
      { method: 'GET', target: '/admin/nothing', headers: [host, ['X-Admin-Token', token]] },
      withBody({ method: 'POST', target: '/admin/accounts', headers: [host, ['X-Admin-Token', token]] }, 'application/json', '{"name":"","tier":"gold"}'),
      withBody({ method: 'POST', target: '/admin/accounts', headers: [host, ['X-Admin-Token', token]] }, 'application/json', '{"name":"h","tier":"trial"}'),
    ] as RawRequest[]) {
      const response = await rawRequest(admin, request)
      statuses.add(response.status)
      expect(headerProblems(response), `${request.method} ${request.target} → ${response.status}`).toEqual([])
    }
    expect([...statuses].sort()).toEqual([200, 201, 401, 403, 404, 405, 422])
  })
})
