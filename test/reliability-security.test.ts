// Security and resources, against the server as its own process (every byte of its output kept,
// its resident memory read from /proc):
// - an API key in a path percent-encoded, or without its prefix, never reaches the log;
// - invalid keys are throttled per client address (429 with Retry-After), in a bounded table;
// - the reply cache stays within its budget in resident memory, with long URLs filling it over
//   and over (the figure is printed and written to docs/reliability.md);
// - a request the client cuts off is logged as aborted, without a status it never got.
import http from 'node:http'
import { createHash } from 'node:crypto'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { MAX_CACHED_URL } from '../server/http/reply-cache.ts'
import { KEY_PREFIX } from '../server/store/api-keys.ts'
import { startServerProcess, type ServerProcess } from './support/reliability-server-process.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'
import { tempDir } from './support/temp-dirs.ts'

let artifacts: { dir: string; id: string }
let storeDir: string
const servers: ServerProcess[] = []

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  storeDir = await tempDir('reliability-security-store')
})
afterAll(async () => {
  for (const server of servers) await server.kill9()
  await rm(storeDir, { recursive: true, force: true })
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

async function start(name: string, env: Record<string, string> = {}, options: { fullGcOnSignal?: boolean; keepAccessLog?: boolean } = {}): Promise<ServerProcess> {
  const server = await startServerProcess({ artifactsDir: artifacts.dir, storePath: path.join(storeDir, name, 'taxatlas.duckdb'), env, ...options })
  servers.push(server)
  return server
}

const get = async (server: ServerProcess, pathName: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.url}${pathName}`, { headers })
  return { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() }
}

describe('an API key sent in a path', () => {
  it('percent-encoded, or without its prefix, is cut out of the access log like a plain one', async () => {
    const server = await start('redaction')
    const { api_key: key } = await server.createAccount('enterprise')
    const secret = key.slice(KEY_PREFIX.length)
    const encoded = [...key].map((c) => (c === '_' ? '%5F' : c)).join('')
    const paths = [`/v1/account/${encoded}`, `/v1/account/${encodeURIComponent(key).replace(/[A-Za-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`, `/v1/account/${secret}`, `/v1/tax/ga/${secret}/x`, `/${encodeURIComponent(secret)}`]
    for (const pathName of paths) expect((await get(server, pathName, { 'X-API-Key': key })).status, pathName).toBe(404)
    await expect.poll(() => server.events().filter((e) => e.event === 'request' && e.status === 404).length).toBe(paths.length)
    const logged = server.events().filter((e) => e.event === 'request' && e.status === 404).map((e) => String(e.path))
    expect(logged).toEqual(['/v1/account/tx_live_[redacted]', '/v1/account/tx_live_[redacted]', '/v1/account/[redacted]', '/v1/tax/ga/[redacted]/x', '/[redacted]'])
    const output = server.output()
    for (const trace of [key, secret, secret.slice(4), secret.slice(0, 30), createHash('sha256').update(key).digest('hex')]) {
      expect(output.includes(trace), trace.slice(0, 12)).toBe(false)
    }
    // Paths without a key are logged as they came.
    expect((await get(server, '/v1/portability/orders/order%20with%20spaces-2026', { 'X-API-Key': key })).status).toBe(404)
    await expect.poll(() => server.events().some((e) => e.path === '/v1/portability/orders/order%20with%20spaces-2026')).toBe(true)
  })
})

describe('invalid API keys from one address', () => {
  it('are answered 429 with Retry-After once the address has spent its burst, a valid key from it too, until it refills', async () => {
    const server = await start('throttle', { TAXATLAS_AUTH_FAILURE_BURST: '10', TAXATLAS_AUTH_FAILURE_RATE: '2' })
    const { api_key: key } = await server.createAccount('enterprise')
    const statuses: number[] = []
    let refused: Awaited<ReturnType<typeof get>> | null = null
    for (let i = 0; i < 200; i++) {
      const answer = await get(server, '/v1/tax/ga?zip=30303', { 'X-API-Key': `${KEY_PREFIX}guess${i}` })
      statuses.push(answer.status)
      if (answer.status === 429) refused ??= answer
    }
    // The burst, and what refilled at 2/s while the guesses went on; the rest refused unlooked-at.
    const unauthorized = statuses.filter((s) => s === 401).length
    expect(unauthorized).toBeGreaterThanOrEqual(10)
    expect(unauthorized).toBeLessThan(40)
    expect(statuses.filter((s) => s === 429).length).toBe(200 - unauthorized)
    expect(Number(refused!.retryAfter)).toBeGreaterThanOrEqual(1)
    expect(JSON.parse(refused!.text).error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/invalid API key from this address/) })
    // A valid key from the throttled address waits too: guessing cannot go on behind the 429s.
    expect((await get(server, '/v1/tax/ga?zip=30303', { 'X-API-Key': key })).status).toBe(429)
    // Public routes are not throttled.
    expect((await get(server, '/v1/freshness')).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, Number(refused!.retryAfter) * 1000))
    expect((await get(server, '/v1/tax/ga?zip=30303', { 'X-API-Key': key })).status).toBe(200)
    expect(await server.stop()).toBe(0)
  })

  it('are counted per client address in a bounded table: past its size the oldest address is forgotten', async () => {
    // Behind a proxy that names the client in X-Forwarded-For (its rightmost address).
    const server = await start('throttle-table', { TAXATLAS_AUTH_FAILURE_BURST: '3', TAXATLAS_AUTH_FAILURE_RATE: '0.01', TAXATLAS_AUTH_FAILURE_ADDRESSES: '50', TAXATLAS_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For' })
    const guess = (address: string) => get(server, '/v1/account', { 'X-API-Key': `${KEY_PREFIX}guess`, 'X-Forwarded-For': `203.0.113.7, ${address}` }).then((a) => a.status)
    for (let i = 0; i < 3; i++) expect(await guess('198.51.100.1')).toBe(401)
    expect(await guess('198.51.100.1')).toBe(429)
    // Another address is counted apart; an IPv6 client by its /64.
    expect(await guess('198.51.100.2')).toBe(401)
    for (let i = 0; i < 3; i++) expect(await guess(`2001:db8:1:2::${i + 1}`)).toBe(401)
    expect(await guess('2001:db8:1:2:ffff::9')).toBe(429)
    // 60 more addresses fail once each: the table keeps 50, and the first address starts over.
    for (let i = 0; i < 60; i++) expect(await guess(`192.0.2.${i + 1}`)).toBe(401)
    expect(await guess('198.51.100.1')).toBe(401)
    expect(await server.stop()).toBe(0)
  })
})

describe('the reply cache', () => {
  const BUDGET_MB = 16
  const RSS_NOISE_MB = 36
  const TIERS = JSON.stringify({ enterprise: { rate_per_second: 10_000_000, burst: 10_000_000 } })
  // An unknown query parameter is ignored by the lookup but makes every URL new, and as long as a
  // URL the cache keeps may be (MAX_CACHED_URL): ~1.6 kB an entry, the budget filled over 1.5 times.
  const PAD = 'x'.repeat(MAX_CACHED_URL - 50)
  const REQUESTS = 12_000

  /** Resident memory of a server answering REQUESTS distinct long-URL lookups: at the start, at its peak, and after a full GC. */
  async function residentUnderChurn(cacheMb: number, pad = PAD, requests = REQUESTS) {
    const server = await start(`cache-${cacheMb}`, { TAXATLAS_REPLY_CACHE_MB: String(cacheMb), TAXATLAS_TIERS: TIERS }, { fullGcOnSignal: true, keepAccessLog: false })
    const { api_key: key } = await server.createAccount('enterprise')
    const lookup = async (i: number) => {
      const response = await fetch(`${server.url}/v1/tax/ga?zip=30303&ref=${i}${pad}`, { headers: { 'X-API-Key': key } })
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
    for (let i = 0; i < 300; i++) await lookup(-i - 1)
    await server.fullGc()
    const before = server.rssMb()
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 100)
    let next = 0
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < requests) await lookup(next++)
    }))
    clearInterval(sampler)
    peak = Math.max(peak, server.rssMb())
    await server.fullGc()
    await new Promise((resolve) => setTimeout(resolve, 300))
    const usage = await server.fullGc()
    const settled = server.rssMb()
    expect(await server.stop()).toBe(0)
    return { peakGrowth: peak - before, settledGrowth: settled - before, heapAndExternalMb: (usage.heapUsed + usage.external) / 1048576, heapCommittedMb: usage.heapTotal / 1048576 }
  }

  it(`holds no more than its budget (${BUDGET_MB} MB) in resident memory, with long URLs churning through it`, async () => {
    const without = await residentUnderChurn(0)
    const withCache = await residentUnderChurn(BUDGET_MB)
    const cache = {
      peakMb: withCache.peakGrowth - without.peakGrowth,
      settledMb: withCache.settledGrowth - without.settledGrowth,
      retainedMb: withCache.heapAndExternalMb - without.heapAndExternalMb,
      committedMb: withCache.heapCommittedMb - without.heapCommittedMb,
    }
    console.log(`reply cache of ${BUDGET_MB} MB, ${REQUESTS} lookups with ~${PAD.length + 30}-character URLs: ${JSON.stringify({ without, withCache, cache })}`)
    // It was filled (what V8 accounts to it is most of the budget), and what it adds to the
    // memory V8 holds from the system stays within the budget.
    expect(cache.retainedMb).toBeGreaterThan(BUDGET_MB * 0.7)
    expect(cache.retainedMb).toBeLessThanOrEqual(BUDGET_MB)
    expect(cache.committedMb).toBeLessThanOrEqual(BUDGET_MB)
    // Resident memory also carries the allocator's arenas outside V8 (DuckDB's and libuv's threads),
    // which keep from 1 to 35 MB more or less from one run to the next on a busy machine: the
    // resident figures only have to show nothing outside V8 grows with the cache.
    expect(cache.settledMb).toBeLessThanOrEqual(BUDGET_MB + RSS_NOISE_MB)
    expect(cache.peakMb).toBeLessThanOrEqual(BUDGET_MB + RSS_NOISE_MB * 1.5)
    // A longer URL is not kept at all: the same churn with them costs nothing.
    const long = await residentUnderChurn(BUDGET_MB, `${PAD}${'y'.repeat(100)}`, 2_000)
    expect(long.heapAndExternalMb - without.heapAndExternalMb).toBeLessThan(2)
  })
})

describe('a request the client cuts off', () => {
  it('is logged as aborted, without the status it never got', async () => {
    const server = await start('aborted')
    const { api_key: key } = await server.createAccount('enterprise')
    const { hostname, port } = new URL(server.url)
    // A backfill whose client goes away halfway through its body.
    await new Promise<void>((resolve) => {
      const request = http.request({ host: hostname, port, method: 'POST', path: '/v1/portability/transactions/backfill', headers: { 'X-API-Key': key, 'Content-Type': 'application/x-ndjson' } })
      request.on('error', () => resolve())
      const row = JSON.stringify({ transaction_id: 'cut-1', transaction_date: new Date().toISOString().slice(0, 10), to_zip: '30303', to_state: 'GA', amount: '1.00' })
      request.write(`${row}\n`)
      setTimeout(() => {
        request.destroy()
        resolve()
      }, 300)
    })
    await expect.poll(() => server.events().find((e) => e.event === 'request' && e.route === '/v1/portability/transactions/backfill')).toBeDefined()
    expect(server.events().find((e) => e.event === 'request' && e.route === '/v1/portability/transactions/backfill')).toMatchObject({ aborted: true, status: null })

    // An order whose client goes away before its JSON body is all there.
    await new Promise<void>((resolve) => {
      const request = http.request({ host: hostname, port, method: 'POST', path: '/v1/portability/orders', headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': '1000' } })
      request.on('error', () => resolve())
      request.write('{"transaction_id": "cut-')
      setTimeout(() => {
        request.destroy()
        resolve()
      }, 300)
    })
    await expect.poll(() => server.events().find((e) => e.event === 'request' && e.route === '/v1/portability/orders')).toBeDefined()
    const order = server.events().find((e) => e.event === 'request' && e.route === '/v1/portability/orders')!
    expect(order).toMatchObject({ aborted: true, status: null })
    // Not a server error: no error line with a stack for either, one info line for the order.
    expect(server.events().filter((e) => e.level === 'error')).toEqual([])
    expect(server.events().filter((e) => e.support_reference === order.support_reference && e.event !== 'request')).toEqual([expect.objectContaining({ level: 'info', event: 'request_aborted' })])
    expect(await server.stop()).toBe(0)
  })
})
