// Path traversal against every route, paths no route matches and the admin listener: `..` in
// every spelling (plain, %2e, %2f, %5c, double-encoded, overlong UTF-8), encoded and raw NULs,
// absolute-form targets, with and without credentials. The server serves no files (it runs without
// the web console, whose files test/console.test.ts attacks the same way): every answer is JSON
// below 500, and none carries a byte of a file on disk (/etc/passwd, package.json, .git/config, an
// index file, the admin endpoint file with its token).
import { readFile, rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { endpointFilePath } from '../server/admin/endpoint-file.ts'
import { API_ROUTES } from '../server/routes/index.ts'
import { envelopeProblems } from './support/reliability-envelope.ts'
import { rawRequest } from './support/reliability-raw-http.ts'
import { startTestServer, type TestServer } from './support/server-harness.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'
import { TRAVERSAL_PAYLOADS as PAYLOADS } from './support/traversal-payloads.ts'

const PREFIXES = ['', '/static', '/artifacts', '/build/server', '/node_modules', '/v1', '/taxjar/v2', '/admin']

let artifacts: { dir: string; id: string }
let server: TestServer
let key: string
let token: string
let markers: string[]

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  server = await startTestServer({ artifactsDir: artifacts.dir })
  key = (await server.createAccount('enterprise')).api_key
  token = JSON.parse(await readFile(endpointFilePath(server.storePath), 'utf8')).token
  const packageJson = await readFile('package.json', 'utf8')
  markers = ['root:x:0:0', packageJson.split('\n')[1].trim(), '"devDependencies"', '[core]', 'TXATLAS', token]
})
afterAll(async () => {
  await server?.close()
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

/** Every target: each route with each payload as each parameter and after its path; payloads under likely static prefixes. */
function targets(): string[] {
  const out = new Set<string>()
  for (const route of API_ROUTES) {
    for (const payload of PAYLOADS) {
      const withParams = route.path.replace(/:\w+/g, payload)
      out.add(route.path.includes(':') ? `${withParams}?zip=30303` : `${route.path}/${payload}`)
    }
  }
  for (const prefix of PREFIXES) for (const payload of PAYLOADS) out.add(`${prefix}/${payload}`)
  for (const raw of ['/../../etc/passwd', '/openapi.json/../../package.json', '//etc/passwd', '/./package.json', '/package.json', 'http://fuzz.test/../../etc/passwd', '*', '/healthz\u0000', '/\u0000/etc/passwd']) out.add(raw)
  return [...out]
}

async function expectNothingServed(url: string, target: string, headers: [string, string][], options: { taxjarPaths?: boolean } = {}) {
  const response = await rawRequest(url, { method: 'GET', target, headers: [['Host', 'traversal.test'], ...headers, ['Connection', 'close']] })
  expect(envelopeProblems({ method: 'GET', target }, response, options), `${target}: ${response.status} ${response.text.slice(0, 200)}`).toEqual([])
  for (const marker of markers) expect(response.text.includes(marker), `${target} answered ${marker.slice(0, 12)}…`).toBe(false)
  return response.status
}

describe('path traversal', () => {
  it('against every route and unknown path, with and without a key, serves no file', async () => {
    const statuses: Record<number, number> = {}
    const answered: string[] = []
    for (const target of targets()) {
      for (const headers of [[], [['X-API-Key', key]]] as [string, string][][]) {
        const status = await expectNothingServed(server.url, target, headers)
        statuses[status] = (statuses[status] ?? 0) + 1
        if (status < 400) answered.push(target)
      }
    }
    console.log(`traversal: ${targets().length} targets × 2, answers by status ${JSON.stringify(statuses)}; 2xx: ${answered.join(' ')}`)
    // Only rate lookups answer, with a key: their garbage path state is replaced by the ZIP's (a repair they disclose).
    for (const target of answered) expect(target).toMatch(/^\/v1\/tax\/[^/]*\?zip=30303$/)
  })

  it('against the admin listener, with its token, serves no file', async () => {
    // Raw NULs are left out here: the admin listener leaves unparseable requests to Node's bodiless 400 (see the reliability report).
    for (const target of targets().filter((t) => !t.includes('\u0000'))) await expectNothingServed(server.running.adminUrl, target, [['X-Admin-Token', token]], { taxjarPaths: false })
  })
})
