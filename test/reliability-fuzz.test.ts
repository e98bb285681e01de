// Property-based fuzzing (fast-check) of every route of the registry, /openapi.json and paths no
// route matches, against a real server on port 0 with a small real snapshot, over a raw socket so
// that any bytes can be sent: hostile paths, query strings, headers and bodies (see
// support/reliability-fuzz-requests.ts). Every answer must be below 500 and in the error format
// of its route (support/reliability-envelope.ts), and a refused request — or a backfill that
// accepted no row — must leave the account's state as it was (support/reliability-fingerprint.ts).
// The same requests sent to the loopback admin listener must get its envelope too.
// FUZZ_SEED replays a run (the seed is printed); FUZZ_RUNS sets the requests per route.
import { rm } from 'node:fs/promises'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { API_ROUTES } from '../server/routes/index.ts'
import { openApiRoute } from '../server/routes/openapi.ts'
import type { Route } from '../server/dispatch/route.ts'
import { envelopeProblems } from './support/reliability-envelope.ts'
import { NOTHING_LISTED, readAccountState, readLookupsUsed, type AccountState } from './support/reliability-fingerprint.ts'
import { requestsFor, type FuzzContext, type FuzzRequest } from './support/reliability-fuzz-requests.ts'
import { rawRequest } from './support/reliability-raw-http.ts'
import { startTestServer, type TestServer } from './support/server-harness.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
const RUNS = Number(process.env.FUZZ_RUNS ?? 60)
const JSON_LIMIT = 64 * 1024

let artifacts: { dir: string; id: string }
let server: TestServer
let context: FuzzContext
/** the account's state after the last request that was allowed to change it */
let known: AccountState
const statuses: Record<string, Record<number, number>> = {}

const targets: { name: string; route: Route | null }[] = [
  ...[...API_ROUTES, openApiRoute(API_ROUTES)].map((route) => ({ name: `${route.method} ${route.path}`, route })),
  { name: 'paths no route matches', route: null },
]

beforeAll(async () => {
  console.log(`fuzz: seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${RUNS} requests for each of ${targets.length} targets`)
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  // Invalid keys by the hundred from one address: not throttled here (reliability-security tests that).
  server = await startTestServer({ artifactsDir: artifacts.dir, env: { TAXATLAS_JSON_BODY_LIMIT: String(JSON_LIMIT), TAXATLAS_BACKFILL_JSON_LIMIT: String(JSON_LIMIT), TAXATLAS_AUTH_FAILURE_BURST: '1000000' } })
  const { api_key: key } = await server.createAccount('enterprise', 'fuzz')
  const today = new Date().toISOString().slice(0, 10)
  // Records for the generated requests to hit: an order, its refund, a registration.
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method, headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  const order = { transaction_id: 'fz-1', transaction_date: today, to_zip: '30303', to_state: 'GA', amount: '19.99', shipping: '0', sales_tax: '1.60' }
  expect((await send('POST', '/v1/portability/orders', order)).status).toBe(201)
  expect((await send('POST', '/v1/portability/orders', { ...order, kind: 'refund', amount: '-5.00', sales_tax: '0' })).status).toBe(201)
  expect((await send('POST', '/taxjar/v2/transactions/orders', { ...order, transaction_id: 'fz-2', provider: 'taxjar' })).status).toBe(201)
  expect((await send('PUT', '/v1/portability/nexus', { regions: [{ state: 'GA', registered_since: '2025-01-01' }] })).status).toBe(200)
  context = { key, knownIds: ['fz-1', 'fz-2'], today, jsonLimit: JSON_LIMIT }
  known = await readAccountState(server.url, key)
})
afterAll(async () => {
  console.log(`fuzz: seed ${SEED}; answers by target and status: ${JSON.stringify(statuses)}`)
  await server?.close()
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

/** What the account's state must be: as last read, and nothing under providers never written to. */
function expectedListing(provider: string): string {
  return known.listed.get(provider) ?? NOTHING_LISTED
}

async function check(target: string, fuzz: FuzzRequest): Promise<void> {
  const { request } = fuzz
  const response = await rawRequest(server.url, request)
  ;(statuses[target] ??= {})[response.status] = (statuses[target][response.status] ?? 0) + 1
  const problems = envelopeProblems(request, response)
  if (problems.length > 0) throw new Error(`${problems.join('; ')}\nrequest: ${fuzz.description}\nanswer: ${response.status} ${response.text.slice(0, 500)}`)

  const acceptedNothing = response.status === 200 && request.target.split('?')[0].endsWith('/backfill') && JSON.parse(response.text).accepted === 0
  const refused = response.status >= 400 || acceptedNothing
  // A GET can only count a lookup; any other method may write.
  if (request.method === 'GET' || request.method === 'HEAD') {
    const used = await readLookupsUsed(server.url, context.key)
    if (refused && used !== known.used) throw new Error(`a refused request (${response.status}) counted a lookup: ${known.used} → ${used}\nrequest: ${fuzz.description}`)
    known.used = used
    return
  }
  const now = await readAccountState(server.url, context.key, fuzz.providers)
  if (refused) {
    const changed = [
      now.used !== known.used && `lookups counted: ${known.used} → ${now.used}`,
      now.stored !== known.stored && `registrations or totals: ${known.stored} → ${now.stored}`,
      ...[...now.listed].filter(([provider, ids]) => ids !== expectedListing(provider)).map(([provider, ids]) => `provider ${provider}: ${expectedListing(provider)} → ${ids}`),
    ].filter(Boolean)
    if (changed.length > 0) throw new Error(`a refused request (${response.status}) changed the account: ${changed.join('; ')}\nrequest: ${fuzz.description}`)
  } else {
    known = { ...now, listed: new Map([...known.listed, ...now.listed]) }
  }
}

describe('hostile requests to the admin listener', () => {
  it('are answered in the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(requestsFor(null, context), async ({ request, description }) => {
        const response = await rawRequest(server.running.adminUrl, request)
        ;(statuses['admin listener'] ??= {})[response.status] = (statuses['admin listener'][response.status] ?? 0) + 1
        const problems = envelopeProblems(request, response, { taxjarPaths: false })
        if (problems.length > 0) throw new Error(`${problems.join('; ')}\nrequest: ${description}\nanswer: ${response.status} ${response.text.slice(0, 500)}`)
      }),
      { seed: SEED + targets.length, numRuns: RUNS },
    )
  })
})

describe('hostile requests to every route', () => {
  for (const [i, { name, route }] of targets.entries()) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(requestsFor(route, context), (fuzz) => check(name, fuzz)),
        { seed: SEED + i, numRuns: RUNS },
      )
    })
  }
})
